/**
 * portico/plugins/custom-auth — log in with a JWT the host's own auth issued (part 1 sections
 * 1, 4, 7, 8). The host passes `getCustomAccessToken()` (and `isLoading`); the plugin syncs
 * once the kernel is ready and whenever `customAuth.sync()` is called or the React hook
 * `useCustomAuth({...})` receives new callbacks. It logs out when the host's token disappears.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { createCustomAuth, registerCustomAuth, type CustomAuthOptions } from './flow'

export { customAuthOf, jwtSubject, type CustomAuth, type CustomAuthOptions, type CustomAuthState, type CustomAuthStatus } from './flow'
export { useCustomAuth } from './hooks'
export { CUSTOM_AUTH_TEXTS } from './strings'
export { toCustomAuthError } from './errors'

export function customAuth(options: CustomAuthOptions = {}): PorticoPlugin<'custom-auth'> {
  return definePlugin({
    id: 'custom-auth',
    kind: 'login',
    setup(ctx) {
      // Options may also come from the host config under the plugin id: { 'custom-auth': {...} }.
      const fromConfig = (ctx.config.extra['custom-auth'] ?? {}) as CustomAuthOptions
      let markReady!: () => void
      const ready = new Promise<void>((r) => (markReady = r))
      const auth = createCustomAuth(ctx, { ...fromConfig, ...options }, ready)
      const unregister = registerCustomAuth(ctx.session, auth)
      const onReady = () => {
        markReady()
        void auth.sync()
      }
      ctx.events.on('ready', onReady)
      return () => {
        unregister()
        ctx.events.off('ready', onReady)
      }
    },
  })
}
