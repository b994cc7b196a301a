/**
 * Smart wallets' work (issue 29): checking a SIWE message signed by a smart account
 * (ERC-1271 once deployed, ERC-6492 before), and signing VerifyingPaymaster sponsorships.
 * Every signature check and every signature is viem's.
 */
import {
  encodeAbiParameters,
  concat,
  getAddress,
  isHex,
  numberToHex,
  parseAbi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import { entryPoint07Abi, entryPoint07Address, entryPoint08Address, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { isErc6492Signature } from 'viem/utils'
import type { AppSettings } from '../../config'
import type { ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { rpcClient } from '../../core/rpc'
import type { AccountInput } from '../../core/identity'
import { allowedHosts, checkIssuedAt, checkUri, consumeNonce } from '../../nonces'
import type { SmartWalletNetwork, SmartWalletSettings } from './config'
import { paymasterErrors, smartWalletErrors } from './errors'

export function rpcFor(ctx: ServerCtx, n: SmartWalletNetwork): PublicClient | null {
  const url = n.rpcUrl ?? ctx.rpcUrls[n.chainId]
  return url ? rpcClient(url) : null
}

/**
 * POST /siwe/link_smart_wallet: the SIWE checks of /siwe/link (domain, nonce from /siwe/init,
 * times, URI), a chain among the app's smart-wallet networks, and a signature by the smart
 * account itself (viem's verifyMessage: ERC-1271, or ERC-6492 through the universal validator
 * for an account not deployed yet). An address with no code and no ERC-6492 wrapper is an
 * EOA, not a smart account: refused.
 */
export async function verifySmartWalletLink(
  ctx: ServerCtx,
  app: AppSettings,
  s: SmartWalletSettings,
  b: { message: string; signature: string; smart_wallet_type: string },
): Promise<AccountInput> {
  if (b.smart_wallet_type !== s.type) throw smartWalletErrors.wrongType(b.smart_wallet_type, s.type)
  let parsed: ReturnType<typeof parseSiweMessage>
  try {
    parsed = parseSiweMessage(b.message)
  } catch {
    throw errors.invalidCredentials('Invalid SIWE message')
  }
  if (!parsed.address || !parsed.nonce || !parsed.domain || !parsed.uri || parsed.version !== '1') throw errors.invalidCredentials('Invalid SIWE message')
  if (!allowedHosts(app.allowedOrigins).includes(parsed.domain)) throw errors.invalidCredentials('SIWE message domain is not allowed for this app')
  if (!validateSiweMessage({ message: parsed, time: new Date() })) throw errors.invalidCredentials('SIWE message is expired or not yet valid')
  checkUri(parsed.uri, app.allowedOrigins, 'SIWE')
  checkIssuedAt(parsed.issuedAt, 'SIWE')
  const network = s.networks.find((n) => n.chainId === parsed.chainId)
  if (!network) throw smartWalletErrors.wrongChain(parsed.chainId)
  if (!isHex(b.signature)) throw smartWalletErrors.badSignature()
  const client = rpcFor(ctx, network)
  if (!client) throw smartWalletErrors.noRpc(network.chainId)
  const address = getAddress(parsed.address)
  if (!(await consumeNonce(ctx.store, { appId: app.id, kind: 'siwe', subject: address.toLowerCase(), nonce: parsed.nonce }))) {
    throw errors.invalidCredentials('Invalid or expired nonce')
  }
  let code: Hex | undefined
  try {
    code = await client.getCode({ address })
  } catch {
    throw smartWalletErrors.noRpc(network.chainId)
  }
  if (!code && !isErc6492Signature(b.signature)) throw smartWalletErrors.notSmartAccount()
  let ok = false
  try {
    ok = await client.verifyMessage({ address, message: b.message, signature: b.signature })
  } catch {
    ok = false
  }
  if (!ok) throw smartWalletErrors.badSignature()
  return {
    type: 'smart_wallet',
    identifier: address.toLowerCase(),
    data: { address, smart_wallet_type: s.type, ...(s.version ? { smart_wallet_version: s.version } : {}) },
    transferable: false,
    linkMethod: 'siwe',
    displayName: address,
  }
}

// ---- the paymaster (ERC-7677 over the v0.7 VerifyingPaymaster of @account-abstraction/contracts;
// for EntryPoint v0.8 the same contract bound to v0.8: PackedUserOperation and its getHash are
// unchanged, and for a 7702 operation (factory 0x7702) viem's toPackedUserOperation gives the
// initCode the bundler sends)

const verifyingPaymasterAbi = parseAbi([
  'function getHash((address sender, uint256 nonce, bytes initCode, bytes callData, bytes32 accountGasLimits, uint256 preVerificationGas, bytes32 gasFees, bytes paymasterAndData, bytes signature) userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
])

/** Paymaster gas the server signs for: the stub's values, and the most a request may name. */
export const PAYMASTER_VERIFICATION_GAS = 100_000n
export const PAYMASTER_POST_OP_GAS = 1n
const MAX_PAYMASTER_VERIFICATION_GAS = 500_000n

export interface PaymasterRequest {
  userOp: UserOperation<'0.7'>
  /** Which EntryPoint: v0.7 (smart accounts) or v0.8 (EIP-7702 upgraded EOAs). */
  version: '0.7' | '0.8'
  entryPoint: Address
  chainId: number
  /** v0.8: the contract the operation's EIP-7702 authorisation delegates to (`eip7702Auth.address`), when it carries one. */
  authorizationTarget?: Address
}

const quantity = (v: unknown, what: string, fallback?: bigint): bigint => {
  if (v === undefined || v === null) {
    if (fallback !== undefined) return fallback
    throw paymasterErrors.params(`${what} is required`)
  }
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw paymasterErrors.params(`${what} must be a hex quantity`)
  return BigInt(v)
}
const bytes = (v: unknown, what: string, fallback?: Hex): Hex => {
  if ((v === undefined || v === null) && fallback !== undefined) return fallback
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v) || v.length > 2 + 2 * 24_000) throw paymasterErrors.params(`${what} must be hex bytes`)
  return v as Hex
}
const addr = (v: unknown, what: string): Address => {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) throw paymasterErrors.params(`${what} must be an address`)
  return getAddress(v)
}

/** params [userOperation, entryPoint, chainId (hex), context] of pm_getPaymasterStubData / pm_getPaymasterData. */
export function parsePaymasterParams(params: unknown[]): PaymasterRequest {
  const [op, ep, chain] = params
  if (!op || typeof op !== 'object' || Array.isArray(op)) throw paymasterErrors.params('the first parameter must be a user operation')
  const u = op as Record<string, unknown>
  const entryPoint = addr(ep, 'entryPoint')
  const chainId = quantity(chain, 'chainId')
  if (chainId > 2n ** 48n) throw paymasterErrors.params('chainId is out of range')
  const factory = u.factory == null ? undefined : addr(u.factory, 'factory')
  const userOp: UserOperation<'0.7'> = {
    sender: addr(u.sender, 'sender'),
    nonce: quantity(u.nonce, 'nonce'),
    factory,
    factoryData: factory ? bytes(u.factoryData, 'factoryData', '0x') : undefined,
    callData: bytes(u.callData, 'callData'),
    callGasLimit: quantity(u.callGasLimit, 'callGasLimit', 0n),
    verificationGasLimit: quantity(u.verificationGasLimit, 'verificationGasLimit', 0n),
    preVerificationGas: quantity(u.preVerificationGas, 'preVerificationGas', 0n),
    maxFeePerGas: quantity(u.maxFeePerGas, 'maxFeePerGas', 0n),
    maxPriorityFeePerGas: quantity(u.maxPriorityFeePerGas, 'maxPriorityFeePerGas', 0n),
    paymasterVerificationGasLimit: quantity(u.paymasterVerificationGasLimit, 'paymasterVerificationGasLimit', PAYMASTER_VERIFICATION_GAS),
    paymasterPostOpGasLimit: quantity(u.paymasterPostOpGasLimit, 'paymasterPostOpGasLimit', PAYMASTER_POST_OP_GAS),
    signature: bytes(u.signature, 'signature', '0x'),
  }
  if (userOp.paymasterVerificationGasLimit! > MAX_PAYMASTER_VERIFICATION_GAS) throw paymasterErrors.gasLimit('paymasterVerificationGasLimit')
  const version = entryPoint === getAddress(entryPoint07Address) ? '0.7' : entryPoint === getAddress(entryPoint08Address) ? '0.8' : null
  if (!version) throw paymasterErrors.entryPoint(entryPoint)
  const auth = u.eip7702Auth
  const authorizationTarget =
    auth && typeof auth === 'object' && !Array.isArray(auth) ? addr((auth as Record<string, unknown>).address, 'eip7702Auth.address') : undefined
  return { userOp, entryPoint, version, chainId: Number(chainId), ...(authorizationTarget ? { authorizationTarget } : {}) }
}

/** The most the operation can cost the paymaster's deposit: every gas limit at maxFeePerGas. */
export function maxCost(u: UserOperation<'0.7'>): bigint {
  const gas = u.callGasLimit + u.verificationGasLimit + u.preVerificationGas + (u.paymasterVerificationGasLimit ?? 0n) + (u.paymasterPostOpGasLimit ?? 0n)
  return gas * u.maxFeePerGas
}

export const SUPPORTED_ENTRY_POINTS = [entryPoint07Address, entryPoint08Address] as const

/** The sender's next nonce for the operation's key (the EntryPoint's), to refuse replays. */
export async function entryPointNonce(client: PublicClient, entryPoint: Address, sender: Address, nonce: bigint): Promise<bigint> {
  const key = nonce >> 64n
  // getNonce is the same function in v0.7 and v0.8.
  return (await client.readContract({ address: entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [sender, key] })) as bigint
}

/** paymasterData: abi.encode(validUntil, validAfter) ‖ signature (the VerifyingPaymaster's layout). */
function paymasterData(validUntil: number, validAfter: number, signature: Hex): Hex {
  return concat([encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]), signature])
}

let stubSigner: PrivateKeyAccount | undefined
/**
 * The stub: a well-formed signature by a throw-away key (the paymaster answers "signature
 * failed" during gas estimation instead of reverting), with the gas the real one will need.
 */
export async function stubData(paymaster: Address, validUntil: number) {
  stubSigner ??= privateKeyToAccount(`0x${'11'.repeat(32)}`)
  const signature = await stubSigner.signMessage({ message: { raw: `0x${'00'.repeat(32)}` } })
  return {
    paymaster,
    paymasterData: paymasterData(validUntil, 0, signature),
    paymasterVerificationGasLimit: numberToHex(PAYMASTER_VERIFICATION_GAS),
    paymasterPostOpGasLimit: numberToHex(PAYMASTER_POST_OP_GAS),
    isFinal: false,
  }
}

/** The real sponsorship: the paymaster's own getHash of the operation, signed by its signer (EIP-191). */
export async function signedData(client: PublicClient, paymaster: Address, signerKey: Hex, userOp: UserOperation<'0.7'>, validUntil: number) {
  const validAfter = 0
  const op = { ...userOp, paymaster, paymasterData: '0x' as Hex }
  let hash: Hex
  try {
    hash = await client.readContract({ address: paymaster, abi: verifyingPaymasterAbi, functionName: 'getHash', args: [toPackedUserOperation(op), validUntil, validAfter] })
  } catch (err) {
    throw paymasterErrors.unavailable(`the paymaster contract did not answer (${(err as Error).name})`)
  }
  const signature = await privateKeyToAccount(signerKey).signMessage({ message: { raw: hash } })
  return {
    paymaster,
    paymasterData: paymasterData(validUntil, validAfter, signature),
    paymasterVerificationGasLimit: numberToHex(userOp.paymasterVerificationGasLimit ?? PAYMASTER_VERIFICATION_GAS),
    paymasterPostOpGasLimit: numberToHex(userOp.paymasterPostOpGasLimit ?? PAYMASTER_POST_OP_GAS),
  }
}

/**
 * The contract an EIP-7702 sender delegates to: the designator on chain (0xef0100 ‖ address),
 * else the operation's own authorisation (its first operation), else null (a plain EOA).
 */
/** The EIP-7702 implementations the paymaster sponsors: Simple7702Account (EntryPoint v0.8), at its canonical address. */
export const SPONSORED_7702_IMPLEMENTATIONS: readonly Address[] = ['0xe6Cae83BdE06E4c305530e199D7217f42808555B']

export async function delegationTarget(client: PublicClient, sender: Address, authorizationTarget?: Address): Promise<Address | null> {
  const code = (await client.getCode({ address: sender }))?.toLowerCase()
  if (code && /^0xef0100[0-9a-f]{40}$/.test(code)) return getAddress(`0x${code.slice(8)}`)
  return authorizationTarget ?? null
}
