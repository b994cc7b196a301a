/**
 * Long user journeys (issue 25): features combined as a real user combines them within minutes,
 * in Chromium against the real server, the wallet frame on its own origin, the local EVM node
 * (hardhat), the SVM stand-in (litesvm) and the funding stand-ins (MoonPay, Coinbase Onramp,
 * the bridge provider, the price source). One harness for the whole file; each journey is one
 * test and uses fresh users, so the journeys do not depend on one another.
 *
 * Every dialog met on the way is closable with × and Escape and keeps focus inside
 * (`expectDialogContained`). Screenshots of each screen go to test/artifacts/journey-*.png.
 *
 * Layout of this file: the shared set-up, then one region per journey. A journey adds the
 * apps it needs to `JOURNEY_APPS` at module level (the set-up passes them to the harness).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { serve } from '@hono/node-server'
import { startEvm, type Evm } from '../chains/evm'
import { startSvm, type Svm } from '../chains/svm'
import { deployTestContracts, type TestContracts } from '../chains/contracts'
import { startHarness, type Harness } from './harness'
import { DEV_COINBASE_PUBLIC_JWK, DEV_FUNDING } from '../../examples/server/src/funding-config'
import { createMoonPayStandIn } from '../../examples/stand-ins/moonpay/server'
import { createCoinbaseStandIn } from '../../examples/stand-ins/coinbase/server'
import { createBridgeStandIn } from '../../examples/stand-ins/bridge/server'
import { createPriceStandIn } from '../../examples/stand-ins/price/handler'

// ---------------------------------------------------------------------------------------------
// Shared set-up
// ---------------------------------------------------------------------------------------------

/** URLs of the local services, known once the set-up ran. */
export interface JourneyServices {
  evm: Evm
  svm: Svm
  contracts: TestContracts
  moonpay: string
  coinbase: string
  bridge: string
  price: string
}
/** An app a journey needs: built from the app page's origin and the services' URLs. */
type JourneyApp = (origin: string, s: JourneyServices) => Record<string, unknown>
const JOURNEY_APPS: JourneyApp[] = []

let h: Harness
let s: JourneyServices
const closers: (() => void)[] = []
const env = { ...process.env }

async function listen(fetch: (r: Request) => Response | Promise<Response>): Promise<string> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closers.push(() => server.close())
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

beforeAll(async () => {
  const [evm, svm] = await Promise.all([startEvm(), startSvm()])
  const contracts = await deployTestContracts(evm)
  const moonpayStandIn = createMoonPayStandIn({
    keys: { [DEV_FUNDING.moonpay.apiKey]: DEV_FUNDING.moonpay.secretKey, [DEV_FUNDING.moonpay.sandboxApiKey]: DEV_FUNDING.moonpay.sandboxSecretKey },
  })
  const coinbaseStandIn = createCoinbaseStandIn({ keys: { [DEV_FUNDING.coinbase.apiKeyName]: { ...DEV_COINBASE_PUBLIC_JWK } }, projectId: DEV_FUNDING.coinbase.projectId })
  const [moonpay, coinbase, bridge, price] = await Promise.all([
    listen(moonpayStandIn.app.fetch),
    listen(coinbaseStandIn.app.fetch),
    listen(createBridgeStandIn().app.fetch),
    listen(createPriceStandIn().fetch),
  ])
  s = { evm, svm, contracts, moonpay, coinbase, bridge, price }
  // The reference server reads these when it is built.
  process.env.PORTICO_PRICE_URL = price
  process.env.PORTICO_SOLANA_RPC_URLS = JSON.stringify({ localnet: svm.rpc })
  process.env.PORTICO_SPL_TOKENS = JSON.stringify({ [svm.demoMint]: 'USDC' })
  h = await startHarness({
    walletFrame: true,
    csp: { connectSrc: [evm.rpc, svm.rpc, moonpay, bridge, price] },
    limits: { resendCooldownS: 0 },
    extraApps: (origin) => JOURNEY_APPS.map((app) => app(origin, s)),
  })
}, 180_000)
afterAll(async () => {
  process.env = env
  await h?.close()
  s?.evm.stop()
  s?.svm.stop()
  for (const c of closers) c()
})

/**
 * The dialog is a real dialog: focus is inside it, Tab keeps it inside, and it has a close
 * button labelled 'Close'. Call on every screen a journey meets.
 */
export async function expectDialogContained(page: Page): Promise<void> {
  const dialog = page.locator('[role=dialog]')
  await dialog.waitFor()
  const inside = () => page.evaluate(() => !!document.activeElement && !!document.querySelector('[role=dialog]')?.contains(document.activeElement))
  await page.waitForFunction(() => !!document.activeElement && !!document.querySelector('[role=dialog]')?.contains(document.activeElement))
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab')
    expect(await inside()).toBe(true)
  }
}

// ---------------------------------------------------------------------------------------------
// Journeys (one region each; keep edits inside your region)
// ---------------------------------------------------------------------------------------------

// region: evm-wallet-totp (e-mail login → wallet → TOTP enrol → sign → send → close receipt)
// endregion

// region: recovery-new-device (password backup → second browser → MFA → recover → sign)
// endregion

// region: passkey-wallet-export (passkey sign-up → wallet → export)
// endregion

// region: funding (fund own wallet from each method; Solana send twice)
// endregion

describe('journeys set-up', () => {
  it('serves the app, the frame and the local chains', async () => {
    expect(h.frameUrl).toMatch(/^http:\/\//)
    expect(await s.evm.public.getChainId()).toBe(31337)
  })
})
