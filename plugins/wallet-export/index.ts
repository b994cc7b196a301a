/**
 * portico/plugins/wallet-export — key export of embedded wallets (spec part 2: 'Key export',
 * sections 5, 7, 8, 9).
 *
 * ```ts
 * createPortico({ appId, plugins: [embeddedWallet({ frameUrl }), walletExport()] })
 * const { exportWallet } = useExportWallet()
 * await exportWallet({ address })
 * ```
 * 'Transfer wallet' embeds the export page of the wallet service
 * (`/apps/{appId}/embedded-wallets/export`, its own origin and CSP): the key or recovery phrase
 * is rendered inside that frame only, with a QR code of 275 px and Copy; the host page cannot
 * read it. The access token reaches the page by postMessage, never in the URL. Export runs
 * the `sensitiveAction` chain first ('export_wallet'), so the MFA plugin forces a verification.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { EXPORT_SCREEN } from './ids'
import type { WalletExportApi } from './flow'
import type { WALLET_EXPORT_TEXTS } from './strings'

// Only what a host needs at start-up is static; the flow, the frame handshake and the screen
// load on first use (they stay importable from their files for tests and advanced hosts).
export type { ExportOptions, ExportScreenParams, WalletExportApi } from './flow'
export { WALLET_EXPORT, exportError } from './ids'
export type { ExportQuery, ExportRequestPayload, ExportReply } from './protocol'
export { useExportWallet } from './react'
export { EXPORT_SCREEN } from './ids'

export type WalletExportTexts = typeof WALLET_EXPORT_TEXTS

declare module 'portico' {
  interface PluginApis {
    'wallet-export': WalletExportApi
  }
}

export function walletExport(): PorticoPlugin<'wallet-export'> {
  return definePlugin({
    id: 'wallet-export',
    kind: 'feature',
    // The errors and their texts load on use (the texts are not the manifest's: nothing shows them before a user exports).
    errors: (_texts, ctx) => Promise.all([import('./errors'), import('./strings')]).then(([e, s]) => e.walletExportErrors(() => ctx.texts(s.WALLET_EXPORT_TEXTS))),
    screens: { [EXPORT_SCREEN]: () => import('./screens/export') },
    setup(ctx) {
      // The flow loads on first use: an app pays for export only when a user exports.
      ctx.provide<WalletExportApi>({
        exportWallet: async (options = {}) => (await import('./flow')).runExport(ctx, options),
        exportSolanaWallet: async (options = {}) => (await import('./flow')).runExport(ctx, { ...options, chainType: 'solana' }),
      })
    },
  })
}
