/**
 * `npm start`: deploys the demo ERC-20 ('Demo USD', DUSD, 6 decimals, anyone may mint) on the
 * local chain (8545) once it answers, from a deployer derived from a fixed label, so its
 * address is always DEMO_TOKEN (the approvals panel of the demo app uses it).
 */
import { createWalletClient, http, keccak256, parseEther, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { DEV_ACCOUNTS, localChain } from '../test/chains/evm'
import { compileTestContracts } from '../test/chains/contracts'
import { createPublicClient } from 'viem'

export const DEMO_TOKEN = '0xa128cAc546Dec96626fDb3d0C513f0A52B950Ead'
const rpc = process.env.PORTICO_EVM_RPC ?? 'http://127.0.0.1:8545'
const chain = localChain(rpc)
const pub = createPublicClient({ chain, transport: http(rpc) })
const deployer = privateKeyToAccount(keccak256(toHex('portico-demo-token-deployer')))

for (let i = 0; ; i++) {
  try {
    await pub.getChainId()
    break
  } catch {
    if (i > 120) throw new Error(`no EVM node at ${rpc}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}
if (((await pub.getCode({ address: DEMO_TOKEN })) ?? '0x') !== '0x') {
  console.log(`demo ERC-20 DUSD already at ${DEMO_TOKEN}`)
} else {
  const funder = createWalletClient({ chain, transport: http(rpc), account: DEV_ACCOUNTS[0] })
  await pub.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: deployer.address, value: parseEther('1') }) })
  const { abi, bytecode } = compileTestContracts().TestToken
  const wallet = createWalletClient({ chain, transport: http(rpc), account: deployer })
  const hash = await wallet.deployContract({ abi, bytecode, args: ['Demo USD', 'DUSD', 6] })
  const { contractAddress } = await pub.waitForTransactionReceipt({ hash })
  console.log(`demo ERC-20 DUSD (6 decimals, open mint) at ${contractAddress}`)
}
