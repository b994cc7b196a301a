/**
 * A local ERC-4337 stack for tests and the offline demo (issue 29), from published parts only:
 *
 * - the chain: anvil (`@foundry-rs/anvil`, its binary shipped in the npm platform package),
 *   hardfork prague, chain id 31337, with anvil's dev accounts (the same mnemonic as hardhat's);
 * - EntryPoint v0.7 at its canonical address 0x0000000071727De22E5E9d8BAf0edAc6f37da032: the
 *   compiled artifact of `@account-abstraction/contracts@0.7.0` sent through the deterministic
 *   CREATE2 deployer (0x4e59b448…, which anvil predeploys) with the canonical salt;
 * - account factories from published bytecode, each through the same CREATE2 deployer (salt 0,
 *   so their addresses are the same on every start): SimpleAccountFactory (same package) and
 *   Safe 1.4.1 (`@safe-global/safe-contracts`: SafeL2, SafeProxyFactory, MultiSend,
 *   MultiSendCallOnly) with the Safe 4337 module 0.3.0 (`@safe-global/safe-4337`:
 *   Safe4337Module, SafeModuleSetup);
 * - a VerifyingPaymaster (same package) whose signer key is handed to the server (it signs
 *   sponsorships in `POST /api/v1/paymaster`), funded with a deposit at the EntryPoint;
 * - a real bundler: Alto (`@pimlico/alto`, GPL-3.0-or-later, a dev dependency run as a child
 *   process), which deploys its own EntryPoint simulations contract on start.
 *
 * ```ts
 * const aa = await startAaStack()       // { rpc, bundlerUrl, entryPoint, factories, paymaster, timings }
 * …
 * aa.stop()
 * ```
 * Ready when each part answers (no fixed sleeps). `timings` says how long each part took.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  concat,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  getContractAddress,
  http,
  parseEther,
  zeroHash,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEV_KEYS, freePort, localChain } from '../../../test/chains/evm'

const require = createRequire(import.meta.url)

/** The deterministic CREATE2 deployer (Arachnid's), predeployed by anvil. */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'
/** EntryPoint v0.7's canonical address and the salt it was deployed with. */
export const ENTRY_POINT_07: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
const ENTRY_POINT_07_SALT: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'

interface Artifact {
  abi: Abi
  bytecode: Hex
}
const aa = (name: string): Artifact => require(`@account-abstraction/contracts/artifacts/${name}.json`)
const safe = (path: string): Artifact => require(`@safe-global/safe-contracts/build/artifacts/contracts/${path}.json`)
const safe4337 = (path: string): Artifact => require(`@safe-global/safe-4337/build/artifacts/contracts/${path}.json`)

export interface SafeAddresses {
  safeSingletonAddress: Address
  safeProxyFactoryAddress: Address
  multiSendAddress: Address
  multiSendCallOnlyAddress: Address
  safe4337ModuleAddress: Address
  safeModuleSetupAddress: Address
}

export interface AaStack {
  /** The chain's JSON-RPC URL. */
  rpc: string
  /** Alto's JSON-RPC URL (eth_sendUserOperation, eth_estimateUserOperationGas …). */
  bundlerUrl: string
  chain: Chain
  public: PublicClient
  entryPoint: Address
  factories: {
    /** SimpleAccountFactory (for permissionless `toSimpleSmartAccount({ factoryAddress })`). */
    simple: Address
    /** Safe 1.4.1 + Safe 4337 module 0.3.0 (the addresses `toSafeSmartAccount` takes). */
    safe: SafeAddresses
  }
  paymaster: {
    address: Address
    /** The VerifyingPaymaster's signer key: the server keeps it (never the browser). */
    signerKey: Hex
    /** The paymaster's deposit at the EntryPoint, in wei. */
    deposit(): Promise<bigint>
  }
  /** Start-up times in milliseconds. */
  timings: { chain: number; contracts: number; bundler: number; total: number }
  stop(): void
}

export interface AaStackOptions {
  /** Chain port (default: a free one; `npm start` uses 8545). */
  port?: number
  /** Bundler port (default: a free one). */
  bundlerPort?: number
  /** VerifyingPaymaster signer key (default: a new random key). */
  paymasterSignerKey?: Hex
  /** The paymaster's initial deposit at the EntryPoint (default 10 ETH). */
  paymasterDeposit?: bigint
  /** Forward the bundler's log (default: kept and shown only when it fails). */
  verbose?: boolean
}

function anvilBinary(): string {
  const pkg = ({ 'linux-x64': 'linux-amd64', 'linux-arm64': 'linux-arm64', 'darwin-x64': 'darwin-amd64', 'darwin-arm64': 'darwin-arm64', 'win32-x64': 'win32-amd64' } as Record<string, string>)[
    `${process.platform}-${process.arch}`
  ]
  if (!pkg) throw new Error(`anvil: no @foundry-rs/anvil binary for ${process.platform}-${process.arch}`)
  return join(dirname(require.resolve(`@foundry-rs/anvil-${pkg}/package.json`)), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
}

function altoCli(): string {
  // The package exports only its library entry (esm/index.js); the CLI sits beside it.
  return join(dirname(require.resolve('@pimlico/alto')), 'cli', 'alto.js')
}

/** Resolves once `probe` succeeds; rejects when the child exits first or after `ms`. */
async function until(what: string, child: ChildProcess, log: () => string, probe: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms
  let exited = false
  child.once('exit', () => (exited = true))
  for (;;) {
    if (exited) throw new Error(`${what} exited during start-up:\n${log().slice(-4000)}`)
    if (await probe().catch(() => false)) return
    if (Date.now() > deadline) throw new Error(`${what} did not answer within ${ms} ms:\n${log().slice(-4000)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function rpcCall(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}

function spawnLogged(cmd: string, args: string[], verbose: boolean): { child: ChildProcess; log: () => string } {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  const keep = (d: Buffer) => {
    if (verbose) process.stderr.write(d)
    log = (log + d).slice(-20_000)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  return { child, log: () => log }
}

export async function startAaStack(o: AaStackOptions = {}): Promise<AaStack> {
  const t0 = performance.now()
  const port = o.port ?? (await freePort())
  const rpc = `http://127.0.0.1:${port}`
  const children: ChildProcess[] = []
  const stop = () => {
    process.off('exit', stop)
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
  }
  // A test runner that exits without calling stop() leaves no chain or bundler behind.
  process.once('exit', stop)
  try {
    // 1. The chain.
    const anvil = spawnLogged(anvilBinary(), ['--hardfork', 'prague', '--chain-id', '31337', '--host', '127.0.0.1', '--port', String(port)], !!o.verbose)
    children.push(anvil.child)
    await until('anvil', anvil.child, anvil.log, async () => (await rpcCall(rpc, 'eth_chainId')) === '0x7a69')
    const tChain = performance.now()

    // 2. The contracts.
    const chain = localChain(rpc)
    const pub = createPublicClient({ chain, transport: http(rpc) }) as PublicClient
    const deployer = createWalletClient({ chain, transport: http(rpc), account: privateKeyToAccount(DEV_KEYS[0]) })
    /** CREATE2 through the deterministic deployer; idempotent (a second start on the same chain finds the code). */
    const create2 = async (a: Artifact, args: unknown[] = [], salt: Hex = zeroHash): Promise<Address> => {
      const initCode = encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args })
      const address = getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt, bytecode: initCode })
      if (await pub.getCode({ address })) return address
      const hash = await deployer.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([salt, initCode]) })
      const r = await pub.waitForTransactionReceipt({ hash })
      if (r.status !== 'success' || !(await pub.getCode({ address }))) throw new Error(`deploying ${address} failed`)
      return address
    }
    const entryPoint = await create2(aa('EntryPoint'), [], ENTRY_POINT_07_SALT)
    if (entryPoint !== ENTRY_POINT_07) throw new Error(`EntryPoint landed at ${entryPoint}, not the canonical ${ENTRY_POINT_07}`)
    const simple = await create2(aa('SimpleAccountFactory'), [entryPoint])
    const safeAddresses: SafeAddresses = {
      safeSingletonAddress: await create2(safe('SafeL2.sol/SafeL2')),
      safeProxyFactoryAddress: await create2(safe('proxies/SafeProxyFactory.sol/SafeProxyFactory')),
      multiSendAddress: await create2(safe('libraries/MultiSend.sol/MultiSend')),
      multiSendCallOnlyAddress: await create2(safe('libraries/MultiSendCallOnly.sol/MultiSendCallOnly')),
      safe4337ModuleAddress: await create2(safe4337('Safe4337Module.sol/Safe4337Module'), [entryPoint]),
      safeModuleSetupAddress: await create2(safe4337('SafeModuleSetup.sol/SafeModuleSetup')),
    }
    // The VerifyingPaymaster: a plain CREATE, so that its owner (Ownable(msg.sender)) is the deployer.
    const signerKey = o.paymasterSignerKey ?? generatePrivateKey()
    const vp = aa('VerifyingPaymaster')
    const pmHash = await deployer.deployContract({ abi: vp.abi, bytecode: vp.bytecode, args: [entryPoint, privateKeyToAccount(signerKey).address] })
    const paymaster = (await pub.waitForTransactionReceipt({ hash: pmHash })).contractAddress!
    const depHash = await deployer.writeContract({ address: paymaster, abi: vp.abi, functionName: 'deposit', value: o.paymasterDeposit ?? parseEther('10') })
    await pub.waitForTransactionReceipt({ hash: depHash })
    const tContracts = performance.now()

    // 3. The bundler (executor: dev account 1, utility: dev account 2).
    const bundlerPort = o.bundlerPort ?? (await freePort())
    const bundlerUrl = `http://127.0.0.1:${bundlerPort}`
    const alto = spawnLogged(
      process.execPath,
      [
        altoCli(),
        '--entrypoints', entryPoint,
        '--executor-private-keys', DEV_KEYS[1],
        '--utility-private-key', DEV_KEYS[2],
        '--rpc-url', rpc,
        '--port', String(bundlerPort),
        // Unsafe mode: no debug_traceCall storage-access checks (anvil's tracer differs from geth's).
        '--safe-mode', 'false',
        '--refilling-wallets', 'false',
        '--utility-wallet-monitor', 'false',
        '--log-level', o.verbose ? 'info' : 'warn',
        '--min-bundle-interval', '10',
        '--max-bundle-interval', '100',
        '--block-time', '200',
        // Browsers call it directly (the smart-wallet plugin's bundler client), as they do a hosted bundler.
        '--enable-cors', 'true',
      ],
      !!o.verbose,
    )
    children.push(alto.child)
    await until('alto', alto.child, alto.log, async () => {
      const eps = (await rpcCall(bundlerUrl, 'eth_supportedEntryPoints')) as string[]
      return eps.map((e) => e.toLowerCase()).includes(entryPoint.toLowerCase())
    })
    const tBundler = performance.now()

    return {
      rpc,
      bundlerUrl,
      chain,
      public: pub,
      entryPoint,
      factories: { simple, safe: safeAddresses },
      paymaster: {
        address: paymaster,
        signerKey,
        deposit: async () => (await pub.readContract({ address: paymaster, abi: vp.abi, functionName: 'getDeposit' })) as bigint,
      },
      timings: {
        chain: Math.round(tChain - t0),
        contracts: Math.round(tContracts - tChain),
        bundler: Math.round(tBundler - tContracts),
        total: Math.round(tBundler - t0),
      },
      stop,
    }
  } catch (err) {
    stop()
    throw err
  }
}
