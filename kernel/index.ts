/**
 * portico — the framework-free kernel. No React, no plugin, no `ui` import; safe to import
 * during server rendering (nothing touches `window` or `document` at module load).
 */
export { createPortico, formatText } from './portico'
export type { Portico, RecentLogin, KernelInternals } from './portico'
export { definePlugin, validatePlugins, PLUGIN_KINDS } from './plugin'
export type { PorticoPlugin, PluginContext, PluginKind, PluginStorage, LoginMeta } from './plugin'
export { createHooks, isRecentEntry } from './portico-hooks'
export type {
  PorticoHooks,
  TapOnlyHooks,
  LoginMethod,
  LoginMethodsContext,
  AuthContext,
  ActionContext,
  WalletConnectorEntry,
  FundingMethodEntry,
} from './portico-hooks'
export { evalFree } from './hooks'
export { createEvents } from './events'
export type { PorticoEvents, PorticoEmitter } from './events'
export {
  resolveConfig,
  validateAppId,
  APP_ID_LENGTH,
  LOGIN_MESSAGE_MAX,
  RECOMMENDED_PRIMARY_METHODS,
  CLIENT_VERSION,
  CONFIG_TEXTS,
  MAINNET,
} from './config'
export type {
  PorticoConfig,
  ResolvedConfig,
  Appearance,
  LegalConfig,
  AllowlistConfig,
  Chain,
  Logo,
  TokenStorage,
} from './config'
export {
  createTransport,
  API_PREFIX,
  REQUEST_TIMEOUT_MS,
  RETRY_STATUSES,
  RETRIES,
  retryDelay,
} from './transport'
export type { Api, ApiRequest, RequestOptions, HttpMethod } from './transport'
export {
  createSession,
  isTokenActive,
  tokenExpiry,
  memoryStorage,
  TOKEN_EXPIRY_MARGIN_S,
  REFRESH_MARKER_COOKIE,
  REFRESH_MARKER_MAX_AGE_S,
} from './session'
export type { Session, AuthResult, LockManagerLike, ChannelLike } from './session'
export { toUser, normaliseBuiltin, normaliseGeneric, passkeyTitle, secondsToDate, OAUTH_PROVIDERS } from './user'
export type {
  User,
  LinkedAccount,
  BaseAccount,
  EmailAccount,
  PhoneAccount,
  WalletAccount,
  SmartWalletAccount,
  CrossAppAccount,
  OAuthAccount,
  OAuthProvider,
  CustomAuthAccount,
  FarcasterAccount,
  PasskeyAccount,
  TelegramAccount,
  OtherAccount,
  MfaMethod,
} from './user'
export { createNavigator, ERROR_SCREEN } from './screens'
export type { Navigator, NavigatorState, ScreenDefinition, ScreenEntry, FlowResult, Intent } from './screens'
export {
  PorticoError,
  PorticoAbortError,
  isPorticoError,
  toPorticoError,
  defaultErrorView,
  ERROR_TEXTS,
} from './errors'
export type { PorticoErrorCode, IdentityErrorCode, WalletErrorCode, ClientErrorCode, ErrorKind, ErrorView, ErrorContext, PorticoErrorOptions } from './errors'
export type * from './wire'
