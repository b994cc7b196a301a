/**
 * EIP-7702 for the embedded wallet (issue 29): upgrade the wallet's EOA in place (same address)
 * to Simple7702Account (EntryPoint v0.8) and send calls from it as an ERC-4337 user operation,
 * sponsored when a paymaster URL is given (the reference server's `POST /api/v1/paymaster`).
 *
 * The layer beneath the smart-wallet plugin: it takes an EIP-1193 provider (the embedded
 * wallet's: the user operation's EIP-712 signature goes through its approval screens) and an
 * authorisation signer. permissionless and viem/account-abstraction are imported only when the
 * function runs (nothing of them in a host's first load).
 *
 * ```ts
 * const { address, receipt } = await upgradeTo7702({
 *   provider: await wallet.getEthereumProvider(), chain, rpcUrl, bundlerUrl, paymasterUrl,
 *   paymasterHeaders: { authorization: `Bearer ${token}`, 'privy-app-id': appId },
 *   signAuthorization: (a) => …,   // the wallet frame's, after the user approves what is delegated
 *   calls: [{ to, data }],
 * })
 * ```
 */
import type { Address, Chain, Hex, SignedAuthorization } from 'viem'
import type { EIP1193Provider } from './provider'

/** EntryPoint v0.8's canonical address. */
export const ENTRY_POINT_V08: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'
/** Simple7702Account (eth-infinitism, EntryPoint v0.8)'s canonical address. */
export const SIMPLE_7702_ACCOUNT: Address = '0xe6Cae83BdE06E4c305530e199D7217f42808555B'
/** Implementations a screen can name (lower-case address → name). */
export const KNOWN_7702_IMPLEMENTATIONS: Record<string, string> = {
  [SIMPLE_7702_ACCOUNT.toLowerCase()]: 'Simple7702Account (EntryPoint v0.8)',
}

export interface AuthorizationRequest {
  chainId: number
  contractAddress: Address
  /** The EOA's next transaction nonce (the authorisation is valid for it only). */
  nonce: number
}

export interface UpgradeTo7702Options {
  /** The embedded wallet's EIP-1193 provider; its first account is upgraded. */
  provider: EIP1193Provider
  /** Signs the EIP-7702 authorisation (only asked when the EOA is not delegated to `implementation` yet). */
  signAuthorization(request: AuthorizationRequest): Promise<SignedAuthorization>
  chain: Chain
  /** The chain's JSON-RPC URL (code, nonce, reads). */
  rpcUrl: string
  bundlerUrl: string
  /** An ERC-7677 paymaster (sponsored gas); without one the EOA pays from its balance. */
  paymasterUrl?: string
  /** Headers for the paymaster (the reference server's wants the user's bearer token and the app id). */
  paymasterHeaders?: Record<string, string>
  /** Default: Simple7702Account's canonical address. */
  implementation?: Address
  calls: { to: Address; value?: bigint; data?: Hex }[]
  /** The bundler's receipt wait (default 60 s). */
  timeoutMs?: number
}

export interface UpgradeTo7702Result {
  /** The EOA's address: unchanged by the upgrade. */
  address: Address
  /** Whether this call carried the authorisation (false: it was delegated already). */
  upgraded: boolean
  userOpHash: Hex
  transactionHash: Hex
  success: boolean
}

/** `0xef0100 ‖ implementation`: the code of an EOA delegated by EIP-7702. */
export const delegationDesignator = (implementation: Address): Hex => `0xef0100${implementation.slice(2).toLowerCase()}` as Hex

export async function upgradeTo7702(o: UpgradeTo7702Options): Promise<UpgradeTo7702Result> {
  const [{ createPublicClient, http }, aa, { to7702SimpleSmartAccount }, { createPimlicoClient }] = await Promise.all([
    import('viem'),
    import('viem/account-abstraction'),
    import('permissionless/accounts'),
    import('permissionless/clients/pimlico'),
  ])
  const implementation = o.implementation ?? SIMPLE_7702_ACCOUNT
  const client = createPublicClient({ chain: o.chain, transport: http(o.rpcUrl) })
  const account = await to7702SimpleSmartAccount({
    client,
    owner: o.provider as never,
    entryPoint: { address: aa.entryPoint08Address, version: '0.8' },
    accountLogicAddress: implementation,
  })
  const code = (await client.getCode({ address: account.address })) ?? '0x'
  const upgraded = code.toLowerCase() !== delegationDesignator(implementation)
  const authorization = upgraded
    ? await o.signAuthorization({ chainId: o.chain.id, contractAddress: implementation, nonce: await client.getTransactionCount({ address: account.address }) })
    : undefined
  const paymaster = o.paymasterUrl ? aa.createPaymasterClient({ transport: http(o.paymasterUrl, { fetchOptions: { headers: o.paymasterHeaders ?? {} } }) }) : undefined
  // Fees from the bundler (Alto's pimlico_getUserOperationGasPrice: what it will accept).
  const gasPrice = createPimlicoClient({ transport: http(o.bundlerUrl), entryPoint: { address: aa.entryPoint08Address, version: '0.8' } })
  const bundler = aa.createBundlerClient({
    account,
    client,
    transport: http(o.bundlerUrl),
    paymaster,
    pollingInterval: 250,
    userOperation: { estimateFeesPerGas: async () => (await gasPrice.getUserOperationGasPrice()).fast },
  })
  const userOpHash = await bundler.sendUserOperation({ calls: o.calls, ...(authorization ? { authorization } : {}) })
  const receipt = await bundler.waitForUserOperationReceipt({ hash: userOpHash, timeout: o.timeoutMs ?? 60_000 })
  return { address: account.address, upgraded, userOpHash, transactionHash: receipt.receipt.transactionHash, success: receipt.success }
}
