/**
 * The smart-wallet half of `npm run bench` (issue 29), in Chromium against the reference server
 * and the local ERC-4337 stack (anvil, EntryPoint v0.7, Safe 1.4.1, the VerifyingPaymaster,
 * Alto), as test/e2e/smart-wallet.spec.ts runs them: a new user's smart account, then
 * BENCH_SW_RUNS sponsored ERC-20 transfers (the first deploys the account):
 *  - time from the click on 'Approve' to 'Transaction complete!' (the receipt), median and p95,
 *    the deploying first operation apart;
 *  - bundler requests per user operation (the plugin's count: gas price, estimate, send, receipt polls).
 * The entry's size is in the sizes table (plugins/smart-wallet).
 */
import { createPublicClient, createWalletClient, http, type Address, type PublicClient } from 'viem'
import { startAaStack } from '../../examples/stand-ins/aa/stack'
import { freePort } from '../../examples/server/test/helpers'
import { DEV_ACCOUNTS } from '../chains/evm'
import { compileTestContracts } from '../chains/contracts'
import { startHarness } from '../e2e/harness'
import { stats } from './browser'

const RUNS = Math.max(2, Number(process.env.BENCH_SW_RUNS ?? 6))
const APP = 'portico-test-apv-smartwb1'

export async function benchSmartWallet() {
  const [aa, apiPort] = await Promise.all([startAaStack(), freePort()])
  const pub = createPublicClient({ chain: aa.chain, transport: http(aa.rpc) }) as PublicClient
  const c = compileTestContracts()
  const deployer = createWalletClient({ account: DEV_ACCOUNTS[0], chain: aa.chain, transport: http(aa.rpc) })
  const token = (await pub.waitForTransactionReceipt({ hash: await deployer.deployContract({ abi: c.TestToken.abi, bytecode: c.TestToken.bytecode, args: ['Test USD', 'TUSD', 6] }) })).contractAddress!
  const h = await startHarness({
    walletFrame: true,
    apiPort,
    csp: { connectSrc: [aa.rpc, aa.bundlerUrl] },
    extraApps: [
      {
        id: APP,
        name: 'Portico Smart Wallet Bench',
        loginMethods: ['email'],
        legal: { termsAndConditionsUrl: null, privacyPolicyUrl: null, requireUsersAcceptTerms: false },
        allowedOrigins: [],
        embeddedWallets: { createOnLogin: 'users-without-wallets' },
        smartWallets: {
          enabled: true,
          type: 'safe',
          version: '1.4.1',
          networks: [{ chainId: 31337, bundlerUrl: aa.bundlerUrl, paymasterUrl: `http://127.0.0.1:${apiPort}/api/v1/paymaster`, rpcUrl: aa.rpc, paymasterAddress: aa.paymaster.address }],
          paymaster: { signerKey: aa.paymaster.signerKey, policy: { chains: [31337], dailyLimitPerUser: 1000 } },
        },
      },
    ],
  })
  try {
    const page = await h.openPage({ app: APP, frame: h.frameUrl!, rpc: aa.rpc, sw: JSON.stringify(aa.factories.safe), swToken: token })
    await h.enterEmailCode(page, `swb-${Date.now().toString(36)}@example.com`)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.waitForFunction(`document.querySelector('[data-testid=sw-status]')?.textContent === 'ready'`, undefined, { timeout: 60_000 })
    const sw = (await page.textContent('[data-testid=sw-address]')) as Address
    await pub.waitForTransactionReceipt({ hash: await deployer.writeContract({ address: token, abi: c.TestToken.abi, functionName: 'mint', args: [sw, 10n ** 12n] }) })
    const dialog = '[role=dialog][data-screen=approvals-transaction]'
    const button = (name: string) => `${dialog} .portico-actions button:has(.portico-button-label:text-is("${name}"))`
    const times: number[] = []
    const perOp: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const before = Number(await page.textContent('[data-testid=sw-bundler-requests]'))
      await page.click('[data-testid=sw-transfer]')
      await page.click(button('Continue'))
      await page.waitForSelector(`${dialog} dd:has-text("Sponsored")`)
      const t0 = performance.now()
      await page.click(button('Approve'))
      await page.waitForSelector(`${dialog} .portico-title:text-is("Transaction complete!")`, { timeout: 90_000 })
      times.push(performance.now() - t0)
      await page.click(button('All Done'))
      await page.waitForFunction(`Number(document.querySelector('[data-testid=sw-bundler-requests]')?.textContent) > ${before}`)
      perOp.push(Number(await page.textContent('[data-testid=sw-bundler-requests]')) - before)
    }
    const result = {
      runs: RUNS,
      firstOperationMs: Math.round(times[0]),
      approveToReceiptMs: stats(times.slice(1)),
      bundlerRequestsPerOperation: { first: perOp[0], later: stats(perOp.slice(1)) },
      stackStartMs: aa.timings.total,
    }
    console.log('\nSmart wallet (Safe 1.4.1 on anvil + Alto, sponsored by the server’s paymaster)')
    console.log(`  approve → receipt: first (deploys the account) ${result.firstOperationMs} ms; then median ${result.approveToReceiptMs.median.toFixed(0)} ms, p95 ${result.approveToReceiptMs.p95.toFixed(0)} ms (${RUNS - 1} runs)`)
    console.log(`  bundler requests per user operation: first ${perOp[0]}, then median ${result.bundlerRequestsPerOperation.later.median}`)
    return result
  } finally {
    await h.close()
    aa.stop()
  }
}
