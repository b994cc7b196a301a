/**
 * portico/plugins/account — the account-transfer screens (part 1 sections 2 and 4): the link
 * conflict prompt ('link-conflict', where the kernel sends `account_transfer_required`) and
 * 'check-assets'. A 'feature' plugin: add `account()` next to the login plugins.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import type { TransferCall } from './calls'

export { transfer, transferData, BUILTIN_TRANSFERS, type TransferCall } from './calls'
export { ACCOUNT_TEXTS, METHOD_LABELS, methodLabel } from './strings'

export const ACCOUNT_SCREENS = { linkConflict: 'link-conflict', checkAssets: 'check-assets' } as const
/** The copy confirmation on the transfer screen lasts 2 s (part 1 section 9). */
export const TRANSFER_COPY_RESET_MS = 2000

export interface AccountOptions {
  /** Transfer calls for more link methods (farcaster, telegram, OAuth ...), keyed by link_method. */
  transfers?: Record<string, TransferCall>
}

const options = new WeakMap<object, AccountOptions>()
/** @internal the screens read the plugin options of their kernel. */
export const accountOptions = (kernel: { session: object }): AccountOptions => options.get(kernel.session) ?? {}

export function account(opts: AccountOptions = {}): PorticoPlugin<'account'> {
  return definePlugin({
    id: 'account',
    kind: 'feature',
    setup(ctx) {
      options.set(ctx.session, opts)
      const screens = () => import('./screens/transfer')
      const off = [
        ctx.screens.register({ id: ACCOUNT_SCREENS.linkConflict, load: () => screens().then((m) => m.LinkConflictScreen) }),
        ctx.screens.register({ id: ACCOUNT_SCREENS.checkAssets, load: () => screens().then((m) => m.CheckAssetsScreen) }),
      ]
      return () => {
        for (const f of off) f()
        if (options.get(ctx.session) === opts) options.delete(ctx.session)
      }
    },
  })
}
