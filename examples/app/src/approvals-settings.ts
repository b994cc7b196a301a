/**
 * The demo's approval screens (portico/plugins/approvals): on for the demo app and the
 * approvals test apps (`?approvals=1|0` overrides), the local Solana cluster (`?svm=`, default
 * the SVM stand-in of `npm start` on 8899), the demo ERC-20 and SPL token.
 */
import type { PorticoPlugin } from 'portico'
import { approvals } from 'portico/plugins/approvals'
import { DEMO_APP_ID } from './settings'

export const DEFAULT_SVM = 'http://127.0.0.1:8899'
/** The demo ERC-20 (DUSD, 6 decimals, open mint) scripts/evm-demo-token.ts deploys. */
export const DEMO_ERC20 = '0xa128cAc546Dec96626fDb3d0C513f0A52B950Ead'
/** The SVM stand-in's demo SPL token (6 decimals; the server names it USDC). */
export const DEMO_SPL_MINT = 'C2SenzsNb8ogniUvPu7s2HoKxDRzi39ZmEasRj6NPna6'

export interface ApprovalsDemoSettings {
  enabled: boolean
  svm: string
  erc20: string
  splMint: string
}

export function approvalsSettings(search = typeof location === 'undefined' ? '' : location.search): ApprovalsDemoSettings {
  const q = new URLSearchParams(search)
  const app = q.get('app') ?? DEMO_APP_ID
  const flag = q.get('approvals')
  return {
    enabled: flag ? flag === '1' : app === DEMO_APP_ID || app.startsWith('portico-test-apv-'),
    svm: q.get('svm') ?? DEFAULT_SVM,
    erc20: q.get('erc20') ?? DEMO_ERC20,
    splMint: q.get('splMint') ?? DEMO_SPL_MINT,
  }
}

/** The approvals e2e app, where a stand-in 'funding' plugin records 'Add funds' when no real one is on. */
export const APPROVALS_TEST_APP = 'portico-test-apv-00000001'

/** The real funding plugins of the demo list (the approvals test app swaps them for the stand-in). */
const FUNDING_PLUGINS = new Set(['funding', 'moonpay', 'coinbase-onramp', 'bridge'])

/**
 * Adds the approvals plugin to the demo's list (when on) and, for the approvals test app only,
 * a stand-in 'funding' plugin (in place of the real ones) whose `fund()` reports the request
 * in the page (`window.__porticoFundRequests`): the approvals spec checks what 'Add funds'
 * asks for; the funding spec covers the funding screens.
 */
export function withApprovalsDemo(list: PorticoPlugin[], search = typeof location === 'undefined' ? '' : location.search): PorticoPlugin[] {
  const s = approvalsSettings(search)
  if (!s.enabled) return list
  const app = new URLSearchParams(search).get('app')
  const base = app === APPROVALS_TEST_APP ? list.filter((p) => !FUNDING_PLUGINS.has(p.id)) : list
  const out = [...base, approvals({ solanaClusters: { localnet: s.svm }, defaultCluster: 'localnet' })]
  if (app === APPROVALS_TEST_APP) {
    out.push({
      id: 'funding',
      kind: 'funding',
      setup(ctx) {
        ctx.provide({
          fund: (request: unknown) => {
            const g = globalThis as { __porticoFundRequests?: unknown[] }
            ;(g.__porticoFundRequests ??= []).push(request)
          },
        })
      },
    } as PorticoPlugin)
  }
  return out
}
