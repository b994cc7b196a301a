/**
 * Key export, framework-free: the checks of spec part 2 section 5 with their texts, the MFA
 * gate ('Export always forces MFA first': the kernel's `sensitiveAction` chain, which the MFA
 * plugin taps), then the 'Transfer wallet' screen. Closing that screen ends the export.
 */
import type { PluginContext, User } from 'portico'
import type { EmbeddedWallet } from 'portico/plugins/embedded-wallet'
import { exportError } from './ids'
import { WALLET_EXPORT_TEXTS } from './strings'

import { EXPORT_SCREEN } from './ids'

export { EXPORT_SCREEN } from './ids'

export interface ExportOptions {
  /** The wallet to export (default: the user's first embedded Ethereum wallet, else the first). */
  address?: string
  /** Show the HD root's recovery phrase instead of the wallet's private key. */
  phrase?: boolean
}

export interface WalletExportApi {
  /** Export an embedded wallet: checks, MFA, then the 'Transfer wallet' screen. Resolves when the user closes it. */
  exportWallet(options?: ExportOptions): Promise<void>
  /** The same for the user's Solana wallet ('User does not have an HD Solana wallet.' without one). */
  exportSolanaWallet(options?: Omit<ExportOptions, 'phrase'>): Promise<void>
}

export interface ExportScreenParams extends Record<string, unknown> {
  address: string
  chainType: 'ethereum' | 'solana'
  walletIndex: number
  phrase: boolean
}

const sameAddress = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b)

/**
 * Which wallet to export, or the spec's error. `all`: the embedded-wallet plugin's wallets
 * (`kernel.plugin('embedded-wallet').wallets()`; none without that plugin).
 */
export function pickWallet(all: readonly EmbeddedWallet[], authenticated: boolean, opts: ExportOptions & { chainType?: 'ethereum' | 'solana' }, T = WALLET_EXPORT_TEXTS): EmbeddedWallet {
  if (!authenticated) throw exportError('MUST_BE_AUTHENTICATED', T.mustBeAuthenticated)
  const pool = opts.chainType ? all.filter((w) => w.chainType === opts.chainType) : all
  if (opts.chainType === 'solana' && !pool.length) throw exportError('EMBEDDED_WALLET_NOT_FOUND', T.noHdSolana)
  const w = opts.address ? pool.find((x) => sameAddress(x.address, opts.address!)) : (pool.find((x) => x.chainType === 'ethereum') ?? pool[0])
  if (!w) throw exportError('EMBEDDED_WALLET_NOT_FOUND', T.mustHaveWallet)
  return w
}

type SensitiveHooks = { sensitiveAction: { promise(c: { action: string; user: User | null; details?: Record<string, unknown> }): Promise<void> } }

export async function runExport(ctx: PluginContext, opts: ExportOptions & { chainType?: 'ethereum' | 'solana' } = {}): Promise<void> {
  const T = ctx.texts(WALLET_EXPORT_TEXTS)
  const wallet = pickWallet(ctx.plugin('embedded-wallet')?.wallets() ?? [], ctx.session.authenticated && !!ctx.session.user, opts, T)
  // MFA: the MFA plugin (when present) shows 'Verify your identity' and throws on cancel.
  await (ctx.hooks as unknown as SensitiveHooks).sensitiveAction.promise({
    action: 'export_wallet',
    user: ctx.session.user,
    details: { address: wallet.address, chainType: wallet.chainType, phrase: !!opts.phrase },
  })
  const params: ExportScreenParams = { address: wallet.address, chainType: wallet.chainType, walletIndex: wallet.walletIndex, phrase: !!opts.phrase }
  const r = await ctx.screens.open(EXPORT_SCREEN, params)
  // Closing the screen is how an export ends; only a real failure rejects.
  if (!r.ok && !/^exited_/.test(r.error.code)) throw r.error
}
