/**
 * The local EVM chain of `npm start`: a hardhat 2 node on 8545 (test/chains/evm.ts), so the
 * demo's embedded wallets have balances to show and somewhere to send. Stops with its parent.
 */
import { formatEther } from 'viem'
import { DEV_ACCOUNTS, startEvm } from '../test/chains/evm'

const port = Number(process.env.PORTICO_EVM_PORT ?? 8545)
const evm = await startEvm({ port })
console.log(`hardhat node on ${evm.rpc} (chain id 31337); funded dev account ${DEV_ACCOUNTS[0].address} (${formatEther(await evm.public.getBalance({ address: DEV_ACCOUNTS[0].address }))} ETH)`)
console.log(`fund a demo wallet: npx tsx scripts/evm-fund.ts <address> [eth]`)
const stop = () => {
  evm.stop()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
setInterval(() => {}, 1 << 30)
