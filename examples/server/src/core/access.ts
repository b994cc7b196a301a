/** Who may log in to an app, by its settings: the enabled methods and the allowlist. */
import { methodEnabled, type AppSettings } from '../config'
import type { C } from './context'
import { errors } from './errors'

/** The app of the request when `method` is enabled for it, else 403 disallowed_login_method. */
export function requireMethod(c: C, method: Parameters<typeof methodEnabled>[1]): AppSettings {
  const app = c.get('app')
  if (!methodEnabled(app, method)) throw errors.disallowedMethod(method)
  return app
}

/** Allowlist: when configured, only listed identifiers may log in (e-mail, phone, wallet address). */
export function checkAllowlist(app: AppSettings, identifier: string) {
  if (!app.allowlist) return
  const want = identifier.toLowerCase()
  if (!app.allowlist.entries.some((e) => e.trim().toLowerCase() === want)) throw errors.allowlist()
}
