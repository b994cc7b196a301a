/** `npx tsx scripts/evm-fund.ts <address> [eth]`: sends ETH from hardhat's first dev account on the local chain (8545). */
import { createWalletClient, http, parseEther, type Address } from 'viem'
import { DEV_ACCOUNTS, localChain } from '../test/chains/evm'

const [to, amount = '1'] = process.argv.slice(2)
if (!to || !/^0x[0-9a-fA-F]{40}$/.test(to)) {
  console.error('usage: npx tsx scripts/evm-fund.ts <0x address> [eth]')
  process.exit(64)
}
const rpc = process.env.PORTICO_EVM_RPC ?? 'http://127.0.0.1:8545'
const wallet = createWalletClient({ chain: localChain(rpc), transport: http(rpc), account: DEV_ACCOUNTS[0] })
const hash = await wallet.sendTransaction({ to: to as Address, value: parseEther(amount) })
console.log(`sent ${amount} ETH to ${to}: ${hash}`)
