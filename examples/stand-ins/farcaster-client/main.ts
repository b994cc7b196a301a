/**
 * The Farcaster client API stand-in for the offline demo (npm start):
 * `npx tsx examples/stand-ins/farcaster-client/main.ts`. PORTICO_FARCASTER_CLIENT_PORT (8799).
 *
 * On the local chain (PORTICO_EVM_RPC, 8545) it deploys the IdRegistry once, from a deployer
 * derived from a fixed label (so its address is always DEMO_FARCASTER.idRegistry, which the
 * server's PORTICO_FARCASTER_ID_REGISTRY names), and registers the demo app's FID to the demo
 * custody address (the server signs with the matching dev key, PORTICO_FARCASTER_APP_CUSTODY_KEY).
 * Approve or revoke a request as the Farcaster app would:
 * `curl -X POST 127.0.0.1:8799/test/signed-key-requests/approve -d '{"key":"0x…","userFid":N}'`.
 */
import { serve } from '@hono/node-server'
import { createPublicClient, createWalletClient, http, keccak256, parseEther, toHex, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
// @ts-expect-error a plain ESM script without types
import { DEMO_FARCASTER } from '../../../scripts/demo-config.mjs'
import { DEV_ACCOUNTS, localChain } from '../../../test/chains/evm'
import { compileIdRegistry } from '../../server/test/chain/farcaster'
import { createFarcasterClientStandIn } from './server'

const rpc = process.env.PORTICO_EVM_RPC ?? 'http://127.0.0.1:8545'
const port = Number(process.env.PORTICO_FARCASTER_CLIENT_PORT ?? 8799)
const chain = localChain(rpc)
const pub = createPublicClient({ chain, transport: http(rpc) })
const deployer = privateKeyToAccount(keccak256(toHex('portico-demo-idregistry-deployer')))
const registry = DEMO_FARCASTER.idRegistry as Address

for (let i = 0; ; i++) {
  try {
    await pub.getChainId()
    break
  } catch {
    if (i > 120) throw new Error(`no EVM node at ${rpc}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}
const { abi, bytecode } = compileIdRegistry()
const wallet = createWalletClient({ chain, transport: http(rpc), account: deployer })
if (((await pub.getCode({ address: registry })) ?? '0x') === '0x') {
  const funder = createWalletClient({ chain, transport: http(rpc), account: DEV_ACCOUNTS[1] })
  await pub.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: deployer.address, value: parseEther('1') }) })
  const { contractAddress } = await pub.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi, bytecode }) })
  if (contractAddress?.toLowerCase() !== registry.toLowerCase()) throw new Error(`IdRegistry deployed at ${contractAddress}, expected ${registry}`)
}
const custody = privateKeyToAccount(DEMO_FARCASTER.appCustodyKey as `0x${string}`).address
await pub.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: registry, abi, functionName: 'register', args: [BigInt(DEMO_FARCASTER.appFid), custody] }) })

const { app } = createFarcasterClientStandIn({ rpcUrl: rpc, idRegistry: registry })
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`[farcaster-client] Farcaster client API stand-in (signed key requests) on http://127.0.0.1:${info.port}; IdRegistry ${registry}, app FID ${DEMO_FARCASTER.appFid}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
