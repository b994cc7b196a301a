/**
 * A local EVM chain for tests and the demo: a hardhat 2 node (chain id 31337) on a loopback
 * port, its well-known funded dev accounts, and solc-js compilation for test contracts.
 *
 * ```ts
 * const evm = await startEvm()            // free port; startEvm({ port: 8545 }) for a fixed one
 * const { abi, bytecode } = compileSolidity(SOURCE, 'Token')
 * const address = await evm.deploy(abi, bytecode, [args])
 * await evm.fund('0xabc…', parseEther('1'))
 * evm.stop()
 * ```
 * Shared by every wallet, approval and funding test; add helpers here rather than copying.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer as netServer } from 'node:net'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
  type Chain,
  type Account,
  type Transport,
} from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'

const require = createRequire(import.meta.url)

/** Hardhat's first funded dev accounts (public, well known; 10 000 ETH each). */
export const DEV_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
]
export const DEV_ACCOUNTS: PrivateKeyAccount[] = DEV_KEYS.map((k) => privateKeyToAccount(k))

export function localChain(rpc: string): Chain {
  return defineChain({
    id: 31337,
    name: 'Hardhat',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
  })
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = netServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
    s.on('error', reject)
  })
}

export interface Evm {
  rpc: string
  chain: Chain
  public: PublicClient
  /** A wallet client for DEV_ACCOUNTS[i] (default 0). */
  wallet(i?: number): WalletClient<Transport, Chain, Account>
  /** Deploys a contract from DEV_ACCOUNTS[0]; resolves with its address once mined. */
  deploy(abi: Abi, bytecode: Hex, args?: unknown[]): Promise<Address>
  /** Sends `wei` from DEV_ACCOUNTS[0] to `to` and waits for the receipt. */
  fund(to: Address, wei: bigint): Promise<void>
  stop(): void
}

/** Starts a hardhat 2 node; resolves once it listens. Rejects if it exits first. */
export async function startEvm(options: { port?: number } = {}): Promise<Evm> {
  const port = options.port ?? (await freePort())
  const node: ChildProcess = spawn(
    process.execPath,
    [
      require.resolve('hardhat/internal/cli/cli.js'),
      '--config',
      join(dirname(fileURLToPath(import.meta.url)), 'hardhat.config.cjs'),
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let log = ''
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += d
      if (log.includes('Started HTTP')) resolve()
    }
    node.stdout!.on('data', onData)
    node.stderr!.on('data', onData)
    node.once('exit', () => reject(new Error(`hardhat node exited: ${log}`)))
  })
  // Keep draining its output so the pipe never fills.
  node.stdout!.resume()
  node.stderr!.resume()
  const rpc = `http://127.0.0.1:${port}`
  const chain = localChain(rpc)
  const pub = createPublicClient({ chain, transport: http(rpc) }) as PublicClient
  const wallet = (i = 0) => createWalletClient({ chain, transport: http(rpc), account: DEV_ACCOUNTS[i] })
  return {
    rpc,
    chain,
    public: pub,
    wallet,
    async deploy(abi, bytecode, args = []) {
      const hash = await wallet(0).deployContract({ abi, bytecode, args })
      return (await pub.waitForTransactionReceipt({ hash })).contractAddress!
    },
    async fund(to, wei) {
      const hash = await wallet(0).sendTransaction({ to, value: wei })
      await pub.waitForTransactionReceipt({ hash })
    },
    stop: () => void node.kill('SIGKILL'),
  }
}

/** Compiles one Solidity source with solc-js and returns contract `name`'s ABI and bytecode. */
export function compileSolidity(source: string, name: string): { abi: Abi; bytecode: Hex } {
  const solc = require('solc')
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'c.sol': { content: source } },
        settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  )
  const errs = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errs.length) throw new Error(errs.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  const c = out.contracts['c.sol'][name]
  if (!c) throw new Error(`contract ${name} not found in source`)
  return { abi: c.abi as Abi, bytecode: `0x${c.evm.bytecode.object}` as Hex }
}

/**
 * A minimal smart-contract wallet for SIWE tests: `OwnedWallet` answers ERC-1271
 * `isValidSignature(hash, sig)` with the magic value when `owner` signed `hash`;
 * `WalletFactory` deploys it with CREATE2 (`deploy(owner, salt)`, `addressOf(owner, salt)`),
 * so an ERC-6492 signature can carry the factory call of a wallet not deployed yet.
 */
export const SMART_WALLET_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract OwnedWallet {
  address public owner;
  constructor(address o) { owner = o; }
  function isValidSignature(bytes32 hash, bytes calldata sig) external view returns (bytes4) {
    if (sig.length != 65) return 0xffffffff;
    bytes32 r = bytes32(sig[0:32]);
    bytes32 s = bytes32(sig[32:64]);
    uint8 v = uint8(sig[64]);
    return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}
contract WalletFactory {
  function deploy(address o, bytes32 salt) external returns (address) {
    return address(new OwnedWallet{salt: salt}(o));
  }
  function addressOf(address o, bytes32 salt) external view returns (address) {
    bytes32 h = keccak256(abi.encodePacked(bytes1(0xff), address(this), salt,
      keccak256(abi.encodePacked(type(OwnedWallet).creationCode, abi.encode(o)))));
    return address(uint160(uint256(h)));
  }
}`
