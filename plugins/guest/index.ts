/**
 * portico/plugins/guest — guest accounts (part 1 sections 1, 3, 5, 7): a 32-byte credential
 * kept per app, `POST /guest/authenticate`, a 'Continue as guest' landing entry and the
 * headless `useGuestAccounts().createGuestAccount()` (without React:
 * `kernel.plugin('guest').createGuestAccount()`). A guest can later log in or link an e-mail
 * and keeps the account (the server upgrades the guest user).
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { UserIcon } from 'portico/ui'
import { CREDENTIAL_KEY, GUEST_METHOD, INITIAL_GUEST_STATE, type GuestApi, type GuestState } from './state'
import { GUEST_TEXTS } from './strings'

// The flow (credential, call) loads on first use or with the landing's preload: the texts are
// the landing's two labels and stay here.
export { GUEST_METHOD, GUEST_CREDENTIAL_BYTES, type GuestApi, type GuestState, type GuestStatus } from './state'
export { useGuestAccounts } from './react'
export { GUEST_TEXTS } from './strings'

declare module 'portico' {
  interface PluginApis {
    guest: GuestApi
  }
}

export interface GuestOptions {
  /** Show the 'Continue as guest' landing entry when 'guest' is an enabled method (default true). */
  landingEntry?: boolean
}

export function guest(options: GuestOptions = {}): PorticoPlugin<'guest'> {
  return definePlugin({
    id: 'guest',
    kind: 'login',
    setup(ctx) {
      const state = ctx.store<GuestState>(INITIAL_GUEST_STATE)
      const load = ctx.lazy(() => import('./flow').then((m) => m.createGuestFlow(ctx, state)))
      const flow: GuestApi = {
        state,
        ...load.methods('createGuestAccount'),
        credential: () => ctx.storage.get(CREDENTIAL_KEY),
      }
      ctx.provide(flow)
      ctx.declareErrors(() => import('./errors').then((m) => m.GUEST_ERRORS))
      // Guests link no account type of their own; the method is remembered (part 1 section 4).
      ctx.methods.declare({ id: GUEST_METHOD, displayName: ctx.texts(GUEST_TEXTS).displayName, remembered: true })

      if (options.landingEntry !== false) {
        ctx.hooks.loginMethods.tap('guest', (methods, { config }) => {
          if (!config.loginMethods.includes(GUEST_METHOD)) return methods
          return [
            ...methods,
            {
              id: GUEST_METHOD,
              label: ctx.texts(GUEST_TEXTS).continueAsGuest,
              group: 'web2' as const,
              icon: UserIcon,
              preload: load,
              start: async () => {
                try {
                  const result = await flow.createGuestAccount()
                  if (ctx.screens.getState().open) ctx.screens.close({ ...result, method: GUEST_METHOD })
                } catch (e) {
                  ctx.screens.error(e, { method: GUEST_METHOD })
                }
              },
            },
          ]
        })
      }

      // A guest who logs out loses the guest account; a guest who became a full user no longer needs it.
      ctx.hooks.logout.tapPromise('guest', async () => {
        if (ctx.session.user?.isGuest) ctx.storage.set(CREDENTIAL_KEY, null)
      })
      const onUser = (user: unknown) => {
        const u = user as { isGuest?: boolean } | null
        if (u && u.isGuest === false && ctx.storage.get(CREDENTIAL_KEY)) ctx.storage.set(CREDENTIAL_KEY, null)
      }
      ctx.events.on('user', onUser)
      return () => ctx.events.off('user', onUser)
    },
  })
}
