/**
 * The local ERC-4337 stack on its own (stack.ts): `npx tsx examples/stand-ins/aa/main.ts`.
 * `npm start` runs it as the demo's chain (8545, bundler 4337, the public demo signer key of
 * scripts/demo-config.mjs `DEMO_AA`, whose addresses it then names).
 * Chain on PORTICO_AA_RPC_PORT (8546), bundler on PORTICO_AA_BUNDLER_PORT (4337); the
 * VerifyingPaymaster's signer key from PORTICO_PAYMASTER_KEY (required: 0x and 64 hex digits,
 * the same value in the server's environment; never printed). Prints the `smartWallets` entry
 * for a development app in apps.json.
 * Stops with Ctrl-C.
 */
import type { Hex } from 'viem'
import { startAaStack } from './stack'

const key = process.env.PORTICO_PAYMASTER_KEY as Hex | undefined
if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
  console.error('PORTICO_PAYMASTER_KEY must hold the paymaster signer key (0x and 64 hex digits, e.g. 0x$(openssl rand -hex 32)); give the server the same value.')
  process.exit(78)
}
const aa = await startAaStack({
  port: Number(process.env.PORTICO_AA_RPC_PORT ?? 8546),
  bundlerPort: Number(process.env.PORTICO_AA_BUNDLER_PORT ?? 4337),
  paymasterSignerKey: key,
})
const api = process.env.PORTICO_API_URL ?? 'http://localhost:8787'
console.log(`ERC-4337 stack up in ${(aa.timings.total / 1000).toFixed(1)} s (chain ${aa.timings.chain} ms, contracts ${aa.timings.contracts} ms, bundler ${aa.timings.bundler} ms)`)
console.log(`  chain ${aa.rpc} (31337), bundler ${aa.bundlerUrl}, EntryPoint v0.7 ${aa.entryPoint}`)
console.log(`  SimpleAccountFactory ${aa.factories.simple}; Safe 1.4.1 + 4337 module: ${JSON.stringify(aa.factories.safe)}`)
console.log(
  '  apps.json (development mode only: chain 31337):\n' +
    JSON.stringify(
      {
        smartWallets: {
          enabled: true,
          type: 'safe',
          networks: [{ chainId: 31337, bundlerUrl: aa.bundlerUrl, paymasterUrl: `${api}/api/v1/paymaster`, rpcUrl: aa.rpc, paymasterAddress: aa.paymaster.address, paymasterAddress08: aa.v08.paymaster }],
          paymaster: { signerKeyEnv: 'PORTICO_PAYMASTER_KEY', policy: { dailyLimitPerUser: 50 } },
        },
      },
      null,
      2,
    ),
)
const stop = () => {
  aa.stop()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
setInterval(() => {}, 1 << 30)
