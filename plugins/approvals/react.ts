/**
 * Host hooks (issue 15): sign and send with the user's embedded wallet, through the approval
 * screens unless `uiOptions.showWalletUIs === false`.
 *
 * Ethereum hooks go through the wallet's EIP-1193 provider (so MFA and the approval routing
 * of the embedded wallet apply); Solana hooks hand the request to the approvals plugin with
 * the wallet's headless signer. Each takes `{ address?, uiOptions? }` (default: the first
 * embedded wallet of that chain).
 */
import { useMemo } from 'react'
import { useKernel } from 'portico/ui'
import type { EmbeddedWallet } from 'portico/plugins/embedded-wallet'
import type { UiOptions } from './request'

export interface HookOptions {
  /** The embedded wallet to use (default: the user's first of the chain type). */
  address?: string
  uiOptions?: UiOptions
}

type Kernel = ReturnType<typeof useKernel>

function pick(kernel: Kernel, chainType: 'ethereum' | 'solana', address?: string): EmbeddedWallet {
  const ew = kernel.plugin('embedded-wallet')
  const list = chainType === 'ethereum' ? ew.ethereumWallets() : ew.solanaWallets()
  const w = address ? list.find((x) => x.address.toLowerCase() === address.toLowerCase()) : list[0]
  if (!w) throw Object.assign(new Error('Embedded wallet not found'), { code: 4100 })
  return w
}

async function ethRequest(kernel: Kernel, method: string, params: (w: EmbeddedWallet) => unknown[], o: HookOptions = {}) {
  const w = pick(kernel, 'ethereum', o.address)
  const ew = kernel.plugin('embedded-wallet')
  const provider = await ew.getEthereumProvider(w.address, { uiOptions: o.uiOptions as never })
  // The wallet keeps one provider per wallet (and per headless / with screens), so per-call
  // screen options (title, description, button text, icon) go to the approvals plugin here.
  if (o.uiOptions && o.uiOptions.showWalletUIs !== false && kernel.hasPlugin('approvals')) {
    const p = provider as { chainId?: () => number; request(a: { method: string }): Promise<unknown> }
    const chainId = p.chainId?.() ?? Number(await p.request({ method: 'eth_chainId' }))
    return kernel.plugin('approvals').handle(
      { wallet: { address: w.address, chainType: 'ethereum' }, method, params: params(w), uiOptions: o.uiOptions, chainId },
      ew.signer(w.address),
    )
  }
  return provider.request({ method, params: params(w) })
}

const utf8Hex = (s: string) => `0x${Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, '0')).join('')}`

/** `signMessage(message, options)` → the signature (hex). personal_sign. */
export function useSignMessage() {
  const kernel = useKernel()
  return useMemo(
    () => ({
      signMessage: (message: string, o?: HookOptions) =>
        ethRequest(kernel, 'personal_sign', (w) => [/^0x([0-9a-fA-F]{2})*$/.test(message) ? message : utf8Hex(message), w.address], o) as Promise<`0x${string}`>,
    }),
    [kernel],
  )
}

/** `signTypedData(typedData, options)` → the signature (hex). eth_signTypedData_v4. */
export function useSignTypedData() {
  const kernel = useKernel()
  return useMemo(
    () => ({
      signTypedData: (typedData: unknown, o?: HookOptions) =>
        ethRequest(
          kernel,
          'eth_signTypedData_v4',
          (w) => [w.address, typeof typedData === 'string' ? typedData : JSON.stringify(typedData, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))],
          o,
        ) as Promise<`0x${string}`>,
    }),
    [kernel],
  )
}

/** `signTransaction(tx, options)` → the signed, serialised transaction (hex). */
export function useSignTransaction() {
  const kernel = useKernel()
  return useMemo(
    () => ({ signTransaction: (tx: Record<string, unknown>, o?: HookOptions) => ethRequest(kernel, 'eth_signTransaction', () => [tx], o) as Promise<`0x${string}`> }),
    [kernel],
  )
}

/** `sendTransaction(tx, options)` → `{ hash }` once the receipt is in (through the screens) or once sent (headless). */
export function useSendTransaction() {
  const kernel = useKernel()
  return useMemo(
    () => ({
      sendTransaction: async (tx: Record<string, unknown>, o?: HookOptions) => ({ hash: (await ethRequest(kernel, 'eth_sendTransaction', () => [tx], o)) as `0x${string}` }),
    }),
    [kernel],
  )
}

async function solanaHandle(kernel: Kernel, method: string, params: Record<string, unknown>, o: HookOptions & { cluster?: string } = {}) {
  const w = pick(kernel, 'solana', o.address)
  const signer = kernel.plugin('embedded-wallet').signer(w.address)
  return kernel.plugin('approvals').handle({ wallet: { address: w.address, chainType: 'solana', cluster: o.cluster }, method, params, uiOptions: o.uiOptions }, signer)
}

/** `signMessage(bytes, options)` → the ed25519 signature (64 bytes). */
export function useSolanaSignMessage() {
  const kernel = useKernel()
  return useMemo(
    () => ({ signMessage: (message: Uint8Array | string, o?: HookOptions) => solanaHandle(kernel, 'solana_signMessage', { message }, o) as Promise<Uint8Array> }),
    [kernel],
  )
}

/** `signTransaction(wireBytes, options)` → the signed wire transaction. */
export function useSolanaSignTransaction() {
  const kernel = useKernel()
  return useMemo(
    () => ({
      signTransaction: (transaction: Uint8Array, o?: HookOptions & { cluster?: string }) =>
        solanaHandle(kernel, 'solana_signTransaction', { transaction, cluster: o?.cluster }, o) as Promise<Uint8Array>,
    }),
    [kernel],
  )
}

/** `sendTransaction(wireBytes, { cluster, … })` → `{ signature, receipt }` once confirmed (receipt: the parsed transaction). */
export function useSendSolanaTransaction() {
  const kernel = useKernel()
  return useMemo(
    () => ({
      sendTransaction: (transaction: Uint8Array, o?: HookOptions & { cluster?: string }) =>
        solanaHandle(kernel, 'solana_signAndSendTransaction', { transaction, cluster: o?.cluster }, o) as Promise<{ signature: string; receipt: unknown }>,
    }),
    [kernel],
  )
}
