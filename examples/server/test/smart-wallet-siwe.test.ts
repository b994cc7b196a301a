/**
 * SIWE with smart-contract wallets on a local chain (hardhat 2 node): ERC-1271 for a deployed
 * wallet, ERC-6492 for a counterfactual one (not deployed: its factory call is wrapped in the
 * signature and simulated by viem's universal validator). The contracts are compiled here
 * with solc-js. The server reaches the chain through PORTICO_RPC_URLS-style `rpcUrls`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  type Hex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { serializeErc6492Signature } from 'viem/utils'
import { loadApps } from '../src/config'
import type { Store } from '../src/core/store'
import { APPS_FILE, DEMO, ORIGIN, freePort, startTestServer, type TestServer, openTestStore } from './helpers'
import { SMART_WALLET_SOURCE, compileSolidity } from '../../../test/chains/evm'

const require = createRequire(import.meta.url)
const CHAIN = 31337

/** The smart-contract wallet and its CREATE2 factory: the shared test source (test/chains/evm.ts). */
function compile() {
  return { wallet: compileSolidity(SMART_WALLET_SOURCE, 'OwnedWallet'), factory: compileSolidity(SMART_WALLET_SOURCE, 'WalletFactory') }
}

let node: ChildProcess
let rpc: string
let store: Store
let s: TestServer
let noRpc: TestServer

// Hardhat's first funded dev account (public, well known).
const DEPLOYER = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

beforeAll(async () => {
  const port = await freePort()
  rpc = `http://127.0.0.1:${port}`
  node = spawn(
    process.execPath,
    [require.resolve('hardhat/internal/cli/cli.js'), '--config', new URL('./chain/hardhat.config.cjs', import.meta.url).pathname, 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let log = ''
  node.stdout!.on('data', (d) => (log += d))
  node.stderr!.on('data', (d) => (log += d))
  // Ready when it says so (no fixed sleep).
  await new Promise<void>((resolve, reject) => {
    const check = () => (log.includes('Started HTTP') ? resolve() : undefined)
    node.stdout!.on('data', check)
    node.once('exit', () => reject(new Error(`hardhat node exited: ${log}`)))
  })
  const demo = loadApps(APPS_FILE).get(DEMO)!
  const apps = [{ ...demo, supportedChains: [1, CHAIN] }]
  store = await openTestStore()
  s = await startTestServer(store, { apps, rpcUrls: { [CHAIN]: rpc } })
  noRpc = await startTestServer(store, { apps })
}, 180_000)

afterAll(async () => {
  await s?.close()
  await noRpc?.close()
  await store?.close()
  node?.kill('SIGKILL')
})

async function siweLogin(server: TestServer, address: Hex, sign: (message: string) => Promise<Hex>) {
  const init = await server.call('/api/v1/siwe/init', { body: { address } })
  expect(init.status).toBe(200)
  const message = createSiweMessage({ address, chainId: CHAIN, domain: 'localhost:5173', nonce: init.body.nonce, uri: ORIGIN, version: '1', issuedAt: new Date() })
  return server.call('/api/v1/siwe/authenticate', { body: { message, signature: await sign(message), chainId: `eip155:${CHAIN}` } })
}

describe('SIWE with smart-contract wallets', () => {
  it('ERC-1271 (deployed wallet) and ERC-6492 (counterfactual wallet) log in; a foreign signer or no RPC does not', { timeout: 180_000 }, async () => {
    const { wallet, factory } = compile()
    const chain = { id: CHAIN, name: 'hardhat', nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpc] } } }
    const pub = createPublicClient({ chain, transport: http(rpc) })
    const deployer = createWalletClient({ chain, transport: http(rpc), account: DEPLOYER })
    const owner = privateKeyToAccount(generatePrivateKey())
    const stranger = privateKeyToAccount(generatePrivateKey())

    // ERC-1271: a deployed wallet owned by `owner`.
    const h1 = await deployer.deployContract({ abi: wallet.abi, bytecode: wallet.bytecode, args: [owner.address] })
    const deployed = (await pub.waitForTransactionReceipt({ hash: h1 })).contractAddress!
    const ok1271 = await siweLogin(s, deployed, (message) => owner.signMessage({ message }))
    expect(ok1271.status).toBe(200)
    expect(ok1271.body.user.linked_accounts[0].address.toLowerCase()).toBe(deployed.toLowerCase())
    expect((await siweLogin(s, deployed, (message) => stranger.signMessage({ message }))).status).toBe(401)
    // Without an RPC URL for the chain the server cannot check a contract signature.
    expect((await siweLogin(noRpc, deployed, (message) => owner.signMessage({ message }))).status).toBe(401)

    // ERC-6492: a wallet not deployed yet; the signature carries its factory call.
    const h2 = await deployer.deployContract({ abi: factory.abi, bytecode: factory.bytecode })
    const factoryAddress = (await pub.waitForTransactionReceipt({ hash: h2 })).contractAddress!
    const salt = `0x${'11'.repeat(32)}` as Hex
    const counterfactual = (await pub.readContract({ address: factoryAddress, abi: factory.abi, functionName: 'addressOf', args: [owner.address, salt] })) as Hex
    expect(await pub.getCode({ address: counterfactual })).toBeUndefined()
    const wrap = (signature: Hex) =>
      serializeErc6492Signature({
        address: factoryAddress,
        data: encodeFunctionData({ abi: factory.abi, functionName: 'deploy', args: [owner.address, salt] }),
        signature,
      })
    const ok6492 = await siweLogin(s, counterfactual, async (message) => wrap(await owner.signMessage({ message })))
    expect(ok6492.status).toBe(200)
    expect(await pub.getCode({ address: counterfactual })).toBeUndefined() // simulated, not deployed
    expect((await siweLogin(s, counterfactual, async (message) => wrap(await stranger.signMessage({ message })))).status).toBe(401)

    // A plain EOA still logs in without touching the chain (local ecrecover), RPC or not.
    const eoa = privateKeyToAccount(generatePrivateKey())
    expect((await siweLogin(noRpc, eoa.address, (message) => eoa.signMessage({ message }))).status).toBe(200)
  })
})
