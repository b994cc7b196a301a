/**
 * portico/plugins/account — the account-transfer screens (part 1 sections 2 and 4): the link
 * conflict prompt ('account-link-conflict', where it sends `account_transfer_required`) and
 * 'account-check-assets'. A 'feature' plugin: add `account()` next to the login plugins.
 * Method-neutral: the heading label and the transfer call come from the login method that
 * answers the error's `link_method` (its descriptor's `transferLabel` and `transfer`).
 */
import { definePlugin, type PorticoPlugin, type WireAccountTransferData, type WireAuthResponse, type WireUser } from 'portico'
import { ACCOUNT_SCREENS, transferData, transferLabel } from './transfer'

// Texts load during start-up; the transfer call, error views and screens on first use (the
// modal's screens wait for the error views): only their types are here.
export type AccountTexts = typeof import('./strings').ACCOUNT_TEXTS
export { ACCOUNT_SCREENS, TRANSFER_COPY_RESET_MS, transferData } from './transfer'

/** What `kernel.plugin('account')` / `usePlugin('account')` return. */
export interface AccountApi {
  /** The transfer data of an `account_transfer_required` error's `data` (null without a nonce). */
  transferData(data: unknown): WireAccountTransferData | null
  /** The heading label of a link method: its method's `transferLabel`, else 'Account'. */
  label(linkMethod: string): string
  /** The login-method id that answers this link method (to remember and report), else the link method. */
  methodOf(linkMethod: string): string
  /** Transfer through the method's descriptor; `method_not_supported` (this plugin's text) when none can. */
  transfer(data: WireAccountTransferData): Promise<WireAuthResponse | { user: WireUser }>
}

declare module 'portico' {
  interface PluginApis {
    account: AccountApi
  }
}

export function account(): PorticoPlugin<'account', AccountTexts> {
  const transfer = () => import('./screens/transfer')
  return definePlugin({
    id: 'account',
    kind: 'feature',
    texts: () => import('./strings').then((m) => m.ACCOUNT_TEXTS),
    errors: (texts, ctx) => import('./errors').then((e) => e.accountErrors({ methods: ctx.methods, texts })),
    screens: {
      [ACCOUNT_SCREENS.linkConflict]: () => transfer().then((m) => m.LinkConflictScreen),
      [ACCOUNT_SCREENS.checkAssets]: () => transfer().then((m) => m.CheckAssetsScreen),
    },
    setup(ctx) {
      ctx.provide<AccountApi>({
        transferData,
        label: (linkMethod) => transferLabel(ctx.methods.forLinkMethod(linkMethod), ctx.texts().fallbackLabel),
        methodOf: (linkMethod) => ctx.methods.forLinkMethod(linkMethod)?.id ?? linkMethod,
        transfer: async (data) => (await import('./calls')).transferAccount(ctx.api, ctx.methods, data, ctx.texts()),
      })
    },
  })
}
