/**
 * portico/internal — the kernel's building blocks, for the UI package, the test kit and
 * embedders who assemble their own kernel. No compatibility promise: names here may change in
 * any release. Hosts and plugins use `portico`.
 */
export { isTransient } from './startup'
export { validatePlugins, PLUGIN_KINDS } from './plugin'
export { createHooks } from './hooks'
export { evalFree, untap, TAPABLE_VERSION } from './tapable'
export { loadHooks } from './deferred-hooks'
export { createEvents } from './events'
export { createMethodRegistry } from './methods'
export type { MethodRegistry } from './methods'
export { mergeTexts } from './texts'
export {
  resolveConfig,
  validateAppId,
  APP_ID_LENGTH,
  LOGIN_MESSAGE_MAX,
  RECOMMENDED_PRIMARY_METHODS,
  CLIENT_VERSION,
  CONFIG_TEXTS,
} from './config'
export { createTransport, API_PREFIX, REQUEST_TIMEOUT_MS, RETRY_STATUSES, RETRIES, retryDelay } from './transport'
export { createSession, REFRESH_MARKER_COOKIE, REFRESH_MARKER_MAX_AGE_S } from './session'
export { isTokenActive, tokenExpiry, TOKEN_EXPIRY_MARGIN_S } from './token'
export type { LockManagerLike, ChannelLike } from './session'
export { toUser, normaliseGeneric } from './user'
export type { AccountTypes } from './user'
export { createNavigator } from './screens'
export { viewFromDeclarations, basicErrorView } from './errors'
export { defaultErrorView } from './error-views'
export { ERROR_TEXTS } from './error-texts'
