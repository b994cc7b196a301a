/**
 * portico/plugins/custom-auth — log in with a JWT the host's own auth issued (part 1 sections
 * 1, 4, 7, 8). The host passes `getCustomAccessToken()` (and `isLoading`); the plugin syncs
 * once the kernel is ready and whenever `kernel.plugin('custom-auth').sync()` is called or the
 * React hook `useCustomAuth({...})` receives new callbacks. It logs out when the host's token
 * disappears. Declares the `custom_auth` method (accounts on `user.customAuth`).
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { CUSTOM_AUTH_ERRORS } from './errors'
import { createCustomAuth, customAuthMethod, type CustomAuthApi, type CustomAuthOptions } from './flow'
import { CUSTOM_AUTH_TEXTS } from './strings'

export {
  jwtSubject,
  CUSTOM_AUTH_METHOD,
  type CustomAuthApi,
  type CustomAuthOptions,
  type CustomAuthState,
  type CustomAuthStatus,
} from './flow'
export { useCustomAuth } from './react'
export { CUSTOM_AUTH_TEXTS } from './strings'
export { toCustomAuthError } from './errors'

declare module 'portico' {
  interface PluginApis {
    'custom-auth': CustomAuthApi
  }
}

export function customAuth(options: CustomAuthOptions = {}): PorticoPlugin<'custom-auth'> {
  return definePlugin({
    id: 'custom-auth',
    kind: 'login',
    setup(ctx) {
      ctx.methods.declare(customAuthMethod(ctx.texts(CUSTOM_AUTH_TEXTS).displayName))
      ctx.declareErrors(CUSTOM_AUTH_ERRORS)
      // Options may also come from the host config under the plugin id: { 'custom-auth': {...} }.
      const fromConfig = (ctx.config.extra['custom-auth'] ?? {}) as CustomAuthOptions
      let markReady!: () => void
      const ready = new Promise<void>((r) => (markReady = r))
      const auth = createCustomAuth(ctx, { ...fromConfig, ...options }, ready)
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
