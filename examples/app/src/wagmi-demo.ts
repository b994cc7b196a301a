/**
 * wagmi over Portico (`portico/wagmi`), loaded on demand: `window.porticoWagmi()` connects a
 * wagmi config to the logged-in user's wallets and reports what wagmi sees (tests call it).
 */
import { connect, createConfig, getAccount, signMessage, disconnect } from '@wagmi/core'
import { custom } from 'viem'
import { mainnet } from 'viem/chains'
import type { Portico } from 'portico'
import { porticoConnector } from 'portico/wagmi'

export async function readWagmi(kernel: Portico, message = 'Hello from wagmi') {
  const connector = porticoConnector({ kernel })
  const config = createConfig({
    chains: [mainnet],
    connectors: [connector],
    // Only signing and accounts go through the wallets here; reads would use the app's RPC.
    transports: { [mainnet.id]: custom({ request: async () => null }) },
    storage: null,
  })
  const [c] = config.connectors
  await connect(config, { connector: c })
  const account = getAccount(config)
  const signatures: { address: string; signature: string }[] = []
  for (const address of account.addresses ?? []) {
    signatures.push({ address, signature: await signMessage(config, { account: address, message }) })
  }
  await disconnect(config)
  return { status: account.status, address: account.address, addresses: account.addresses, connector: account.connector?.id, signatures, message }
}
