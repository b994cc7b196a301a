/**
 * portico/plugins/custom-auth — log in with a JWT the host's own auth issued (part 1 sections
 * 1, 4, 7, 8). The host passes `getCustomAccessToken()` (and `isLoading`); the plugin syncs
 * once the kernel is ready and whenever `kernel.plugin('custom-auth').sync()` is called or the
 * React hook `useCustomAuth({...})` receives new callbacks. It logs out when the host's token
 * disappears. Declares the `custom_auth` method (accounts on `user.customAuth`).
 */
import { definePlugin, type CustomAuthAccount, type PorticoPlugin } from 'portico'
import { CUSTOM_AUTH_DISPLAY_NAME, customAuthMethod, type CustomAuthApi, type CustomAuthOptions, type CustomAuthState } from './method'

// The sync flow, its call and texts load at ready (custom auth syncs then) or on first use.
export {
  jwtSubject,
  CUSTOM_AUTH_METHOD,
  type CustomAuthApi,
  type CustomAuthOptions,
  type CustomAuthState,
  type CustomAuthStatus,
} from './method'
export { useCustomAuth } from './react'
export type CustomAuthTexts = typeof import('./strings').CUSTOM_AUTH_TEXTS

declare module 'portico' {
  interface PluginApis {
    'custom-auth': CustomAuthApi
  }
  interface UserFields {
    customAuth?: CustomAuthAccount
  }
}

export function customAuth(options0: CustomAuthOptions = {}): PorticoPlugin<'custom-auth'> {
  return definePlugin({
    id: 'custom-auth',
    kind: 'login',
    setup(ctx) {
      const name = (ctx.config.texts['custom-auth'] as Record<string, unknown> | undefined)?.displayName
      ctx.methods.declare(customAuthMethod(typeof name === 'string' ? name : CUSTOM_AUTH_DISPLAY_NAME))
      ctx.declareErrors(() => import('./errors').then((m) => m.CUSTOM_AUTH_ERRORS))
      // Options may also come from the host config under the plugin id: { 'custom-auth': {...} }.
      const fromConfig = (ctx.config.extra['custom-auth'] ?? {}) as CustomAuthOptions
      let markReady!: () => void
      const ready = new Promise<void>((r) => (markReady = r))
      let options: CustomAuthOptions = { ...fromConfig, ...options0 }
      const loading = (o: CustomAuthOptions) => (typeof o.isLoading === 'function' ? o.isLoading() : o.isLoading === true)
      const state = ctx.store<CustomAuthState>({ status: typeof options.getCustomAccessToken === 'function' ? 'initial' : 'not-enabled', error: null })
      // The options as they are now (setOptions before the load updated them).
      const load = ctx.lazy(() => import('./flow').then((m) => m.createCustomAuth(ctx, options, ready, state)))
      const auth: CustomAuthApi = {
        state,
        ...load.methods('sync'),
        setOptions(next) {
          if (load.current) return load.current.setOptions(next)
          const changed = next.getCustomAccessToken !== options.getCustomAccessToken || loading(options) !== loading(next)
          options = { ...options, ...next }
          if (changed) void auth.sync()
        },
      }
      ctx.provide(auth)
      const onReady = () => {
        markReady()
        void auth.sync()
      }
      ctx.events.on('ready', onReady)
      return () => ctx.events.off('ready', onReady)
    },
  })
}
