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
 *   sponsorships in `POST /api/v1/paymaster`), funded with a deposit at the EntryPoint; through
 *   the same CREATE2 deployer, so its address follows from the signer alone (`npm start`'s demo
 *   config names it; `paymasterAddresses(signer)`). Its owner (who may withdraw the deposit or
 *   stake) is then the deployer contract, i.e. nobody: nothing here needs one;
 * - every deployment is sent by anvil's dev account 9 (`STACK_DEPLOYER`): tests and the demo send
 *   from accounts 0 and 3, Alto from 1 and 2, so no two of them race for a nonce;
 * - for EIP-7702 (same package at 0.8.0, the npm alias `@account-abstraction/contracts-v08`):
 *   EntryPoint v0.8 at its canonical address 0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108 (the
 *   canonical salt) and Simple7702Account at its canonical 0xe6Cae83BdE06E4c305530e199D7217f42808555B
 *   (salt 0), the implementation an upgraded EOA delegates to; v0.8 ships no VerifyingPaymaster,
 *   so a second one of v0.7's (its PackedUserOperation and paymaster interface are v0.8's too) is
 *   rebound to EntryPoint v0.8 (its immutable entryPoint word, see below) and funded the same
 *   way, with the same signer;
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
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { DEV_KEYS, freePort, localChain } from '../../../test/chains/evm'

const require = createRequire(import.meta.url)

/** The deterministic CREATE2 deployer (Arachnid's), predeployed by anvil. */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'
/** EntryPoint v0.7's canonical address and the salt it was deployed with. */
export const ENTRY_POINT_07: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
const ENTRY_POINT_07_SALT: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'
/** EntryPoint v0.8's canonical address and salt (EIP-7702 accounts). */
export const ENTRY_POINT_08: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'
const ENTRY_POINT_08_SALT: Hex = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9'
/** Simple7702Account (v0.8)'s canonical address: permissionless's `to7702SimpleSmartAccount` default. */
export const SIMPLE_7702_ACCOUNT: Address = '0xe6Cae83BdE06E4c305530e199D7217f42808555B'

/** The deployer of the stack's contracts: anvil's dev account 9 (the well-known test mnemonic; 10 000 ETH). */
export const STACK_DEPLOYER = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 9 })
/** CREATE2 salts of the two VerifyingPaymasters (v0.7; the one rebound to v0.8). */
const PAYMASTER_SALT = zeroHash
const PAYMASTER_08_SALT: Hex = '0x0000000000000000000000000000000000000000000000000000000000000008'

interface Artifact {
  abi: Abi
  bytecode: Hex
}
const aa = (name: string): Artifact => require(`@account-abstraction/contracts/artifacts/${name}.json`)
const aa08 = (name: string): Artifact => require(`@account-abstraction/contracts-v08/artifacts/${name}.json`)
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
  /** EIP-7702: EntryPoint v0.8, the Simple7702Account implementation, a VerifyingPaymaster bound to v0.8 (same signer key). */
  v08: {
    entryPoint: Address
    simple7702: Address
    paymaster: Address
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
    const deployer = createWalletClient({ chain, transport: http(rpc), account: STACK_DEPLOYER })
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
    // The VerifyingPaymaster, its address a function of the signer (paymasterAddresses).
    const signerKey = o.paymasterSignerKey ?? generatePrivateKey()
    const vp = aa('VerifyingPaymaster')
    const signer = privateKeyToAccount(signerKey).address
    const paymaster = await create2(vp, [entryPoint, signer], PAYMASTER_SALT)
    const depHash = await deployer.writeContract({ address: paymaster, abi: vp.abi, functionName: 'deposit', value: o.paymasterDeposit ?? parseEther('10') })
    await pub.waitForTransactionReceipt({ hash: depHash })
    // EIP-7702: EntryPoint v0.8, Simple7702Account, and a VerifyingPaymaster bound to v0.8.
    const entryPoint08 = await create2(aa08('EntryPoint'), [], ENTRY_POINT_08_SALT)
    if (entryPoint08 !== ENTRY_POINT_08) throw new Error(`EntryPoint v0.8 landed at ${entryPoint08}, not the canonical ${ENTRY_POINT_08}`)
    const simple7702 = await create2(aa08('Simple7702Account'))
    if (simple7702 !== SIMPLE_7702_ACCOUNT) throw new Error(`Simple7702Account landed at ${simple7702}, not the canonical ${SIMPLE_7702_ACCOUNT}`)
    // v0.7's VerifyingPaymaster refuses a v0.8 EntryPoint in its constructor (an ERC-165 check on
    // v0.7's IEntryPoint id), so it is deployed for v0.7 and its immutable entryPoint word in the
    // runtime code is then pointed at v0.8 (anvil_setCode, same address and storage: owner).
    const paymaster08 = await create2(vp, [entryPoint, signer], PAYMASTER_08_SALT)
    const word = (a: Address) => a.slice(2).toLowerCase().padStart(64, '0')
    const code07 = (await pub.getCode({ address: paymaster08 }))!.toLowerCase()
    const code08 = code07.split(word(entryPoint)).join(word(entryPoint08)) as Hex
    // A second start on the same chain finds it rebound already.
    if (code08 === code07 && !code07.includes(word(entryPoint08))) throw new Error('VerifyingPaymaster: no entryPoint immutable found to rebind')
    if (code08 !== code07) await rpcCall(rpc, 'anvil_setCode', [paymaster08, code08])
    const dep08Hash = await deployer.writeContract({ address: paymaster08, abi: vp.abi, functionName: 'deposit', value: o.paymasterDeposit ?? parseEther('10') })
    await pub.waitForTransactionReceipt({ hash: dep08Hash })
    const tContracts = performance.now()

    // 3. The bundler (executor: dev account 1, utility: dev account 2).
    const bundlerPort = o.bundlerPort ?? (await freePort())
    const bundlerUrl = `http://127.0.0.1:${bundlerPort}`
    const alto = spawnLogged(
      process.execPath,
      [
        altoCli(),
        '--entrypoints', `${entryPoint},${entryPoint08}`,
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
      const have = eps.map((e) => e.toLowerCase())
      return have.includes(entryPoint.toLowerCase()) && have.includes(entryPoint08.toLowerCase())
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
      v08: {
        entryPoint: entryPoint08,
        simple7702,
        paymaster: paymaster08,
        deposit: async () => (await pub.readContract({ address: paymaster08, abi: vp.abi, functionName: 'getDeposit' })) as bigint,
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

/**
 * The VerifyingPaymasters' addresses for a signer, before anything is deployed: `npm start`'s
 * demo config names them (scripts/demo-config.mjs), and the stack deploys them there.
 */
export function paymasterAddresses(signer: Address): { paymaster: Address; paymaster08: Address } {
  const vp = aa('VerifyingPaymaster')
  const initCode = encodeDeployData({ abi: vp.abi, bytecode: vp.bytecode, args: [ENTRY_POINT_07, signer] })
  const at = (salt: Hex) => getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt, bytecode: initCode })
  return { paymaster: at(PAYMASTER_SALT), paymaster08: at(PAYMASTER_08_SALT) }
}
