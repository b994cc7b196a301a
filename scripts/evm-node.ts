/**
 * The local EVM chain of `npm start`: the ERC-4337 stack (examples/stand-ins/aa/stack.ts) on
 * 8545 — anvil (prague, chain id 31337, the dev accounts hardhat also has) with EntryPoint v0.7
 * and v0.8, Safe 1.4.1 with its 4337 module, Simple7702Account and the VerifyingPaymasters at the
 * addresses scripts/demo-config.mjs names — and the Alto bundler on 4337. The demo's embedded
 * wallets, approvals, the demo ERC-20 and the Farcaster stand-in use the same chain. Stops with
 * its parent.
 */
import { formatEther, type Hex } from 'viem'
import { DEV_ACCOUNTS } from '../test/chains/evm'
import { startAaStack } from '../examples/stand-ins/aa/stack'
// @ts-expect-error a plain ESM script without types
import { DEMO_AA, DEMO_PORTS } from './demo-config.mjs'

const port = Number(process.env.PORTICO_EVM_PORT ?? DEMO_PORTS.evm)
const bundlerPort = Number(process.env.PORTICO_AA_BUNDLER_PORT ?? DEMO_PORTS.bundler)
const aa = await startAaStack({ port, bundlerPort, paymasterSignerKey: DEMO_AA.paymasterKey as Hex })
// The demo config names these addresses (the server's paymaster, the app's Safe contracts).
const landed = JSON.stringify({ paymaster: aa.paymaster.address, paymaster08: aa.v08.paymaster, safe: aa.factories.safe })
const named = JSON.stringify({ paymaster: DEMO_AA.paymaster, paymaster08: DEMO_AA.paymaster08, safe: DEMO_AA.safe })
if (landed !== named) throw new Error(`the stack's contracts landed at ${landed}, not where scripts/demo-config.mjs says (${named})`)
console.log(`anvil on ${aa.rpc} (chain id 31337); funded dev account ${DEV_ACCOUNTS[0].address} (${formatEther(await aa.public.getBalance({ address: DEV_ACCOUNTS[0].address }))} ETH)`)
console.log(`ERC-4337: EntryPoint v0.7 ${aa.entryPoint}, v0.8 ${aa.v08.entryPoint}; Safe 1.4.1 + 4337 module; paymasters ${aa.paymaster.address}, ${aa.v08.paymaster}; bundler (Alto) ${aa.bundlerUrl}; up in ${(aa.timings.total / 1000).toFixed(1)} s`)
console.log(`fund a demo wallet: npx tsx scripts/evm-fund.ts <address> [eth]`)
const stop = () => {
  aa.stop()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
setInterval(() => {}, 1 << 30)
