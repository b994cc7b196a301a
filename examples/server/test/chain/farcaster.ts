/**
 * Local stand-ins for Sign In With Farcaster tests:
 * - `startChain()`: a hardhat 2 node on a free loopback port (the Optimism RPC stand-in).
 * - `deployIdRegistry(rpc)`: a tiny IdRegistry (`idOf(custody)`, `custodyOf(fid)`, owner-only
 *   `register(fid, custody)`), compiled with solc-js and deployed by hardhat's first dev account.
 * - `farcasterApp(...)`: the Farcaster app (Warpcast) stand-in: takes the connect URI the
 *   user scans, builds and signs a real SIWF message with the fid's custody key
 *   (@farcaster/auth-client's wallet client) and posts it to the server's channel relay.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer as netServer } from 'node:net'
import { createRequire } from 'node:module'
import { createWalletClient as createFcWalletClient } from '@farcaster/auth-client'
import { createPublicClient, createWalletClient, http, type Abi, type Address, type Hex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { createSiweMessage, type SiweMessage } from 'viem/siwe'

const require = createRequire(import.meta.url)

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract IdRegistry {
  address public owner;
  mapping(address => uint256) public idOf;
  mapping(uint256 => address) public custodyOf;
  constructor() { owner = msg.sender; }
  function register(uint256 fid, address custody) external {
    require(msg.sender == owner, "owner only");
    address old = custodyOf[fid];
    if (old != address(0)) idOf[old] = 0;
    idOf[custody] = fid;
    custodyOf[fid] = custody;
  }
}`

// Hardhat's first funded dev account (public, well known).
const DEPLOYER = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const CHAIN = { id: 31337, name: 'hardhat', nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] as string[] } } }

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = netServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
    s.on('error', reject)
  })
}

export interface Chain {
  rpc: string
  stop(): void
}

/** A hardhat 2 node; resolves once it says it listens. */
export async function startChain(): Promise<Chain> {
  const port = await freePort()
  const node: ChildProcess = spawn(
    process.execPath,
    [require.resolve('hardhat/internal/cli/cli.js'), '--config', new URL('./hardhat.config.cjs', import.meta.url).pathname, 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let log = ''
  node.stdout!.on('data', (d) => (log += d))
  node.stderr!.on('data', (d) => (log += d))
  await new Promise<void>((resolve, reject) => {
    const check = () => (log.includes('Started HTTP') ? resolve() : undefined)
    node.stdout!.on('data', check)
    node.once('exit', () => reject(new Error(`hardhat node exited: ${log}`)))
  })
  return { rpc: `http://127.0.0.1:${port}`, stop: () => void node.kill('SIGKILL') }
}

/** The IdRegistry's ABI and bytecode (solc-js). */
export function compileIdRegistry() {
  const solc = require('solc')
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'r.sol': { content: SOURCE } },
        settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  )
  const errs = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errs.length) throw new Error(errs.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  const c = out.contracts['r.sol'].IdRegistry
  return { abi: c.abi as Abi, bytecode: `0x${c.evm.bytecode.object}` as Hex }
}

export interface IdRegistry {
  address: Address
  register(fid: number, custody: Address): Promise<void>
}

export async function deployIdRegistry(rpc: string): Promise<IdRegistry> {
  const chain = { ...CHAIN, rpcUrls: { default: { http: [rpc] } } }
  const pub = createPublicClient({ chain, transport: http(rpc) })
  const wallet = createWalletClient({ chain, transport: http(rpc), account: DEPLOYER })
  const { abi, bytecode } = compileIdRegistry()
  const hash = await wallet.deployContract({ abi, bytecode })
  const address = (await pub.waitForTransactionReceipt({ hash })).contractAddress!
  return {
    address,
    async register(fid, custody) {
      const tx = await wallet.writeContract({ address, abi, functionName: 'register', args: [BigInt(fid), custody] })
      await pub.waitForTransactionReceipt({ hash: tx })
    },
  }
}

export interface FarcasterUser {
  fid: number
  custody: PrivateKeyAccount
  username?: string
  displayName?: string
  bio?: string
  pfpUrl?: string
}

/** The parts of a connect URI the Farcaster app reads. */
export function parseConnectUri(uri: string) {
  const q = new URL(uri).searchParams
  return { channelToken: q.get('channelToken')!, nonce: q.get('nonce')!, siweUri: q.get('siweUri')!, domain: q.get('domain')! }
}

/** Builds and signs the SIWF message (custody key) for a connect URI; `tamper` alters it for negative tests. */
export async function signIn(uri: string, u: FarcasterUser, over: { expirationTime?: Date; notBefore?: Date; issuedAt?: Date; nonce?: string; domain?: string; uri?: string } = {}) {
  const p = parseConnectUri(uri)
  const fc = createFcWalletClient({ ethereum: { publicClient: undefined as never, getFid: async () => 0n, isValidAuthAddress: async () => false } })
  const built = fc.buildSignInMessage({
    fid: u.fid,
    address: u.custody.address,
    domain: over.domain ?? p.domain,
    uri: over.uri ?? p.siweUri,
    nonce: over.nonce ?? p.nonce,
  })
  if (built.isError) throw built.error
  let message = built.message
  // Times the builder refuses (expired, not yet valid, stale): the same SIWF fields, re-rendered.
  if (over.expirationTime || over.notBefore || over.issuedAt) {
    message = createSiweMessage({ ...built.siweMessage, ...over, nonce: built.siweMessage.nonce, domain: built.siweMessage.domain, uri: built.siweMessage.uri } as SiweMessage)
  }
  const signature = await u.custody.signMessage({ message })
  return { message, signature, channelToken: p.channelToken }
}

/**
 * The Farcaster app: signs in for `u` and posts the result to the server's channel relay
 * (`${server}/farcaster-relay`, @farcaster/auth-client's relay wire). Returns the relay's answer.
 */
export async function farcasterApp(server: string, uri: string, u: FarcasterUser, relayKey = '') {
  const { message, signature, channelToken } = await signIn(uri, u)
  const fc = createFcWalletClient({
    relay: `${server}/farcaster-relay`,
    ethereum: { publicClient: undefined as never, getFid: async () => 0n, isValidAuthAddress: async () => false },
  })
  const r = await fc.authenticate({
    channelToken,
    authKey: relayKey,
    message,
    signature,
    fid: u.fid,
    authMethod: 'custody',
    username: u.username,
    displayName: u.displayName,
    bio: u.bio,
    pfpUrl: u.pfpUrl,
  })
  if (r.isError) throw r.error ?? new Error('relay refused the sign-in')
  return { message, signature, data: r.data }
}
