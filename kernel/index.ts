/**
 * portico — the framework-free kernel. No React, no plugin, no `ui` import; safe to import
 * during server rendering (nothing touches `window` or `document` at module load).
 *
 * This entry is what hosts and plugin authors use. The kernel's building blocks (hook
 * factories, transport, session, config resolution ...) live behind `portico/internal`,
 * which carries no compatibility promise.
 */
export { createPortico, formatText } from './portico'
export type { Portico, RecentLogin, ReadyStatus, KernelInternals } from './portico'
export type { PageLocation } from './startup'
export { definePlugin } from './plugin'
export type { PorticoPlugin, PluginContext, PluginKind, PluginStorage, PluginApis, LoginMeta, LazyFlow, LazyOptions, MethodManifest, ScreenManifest } from './plugin'
export { isRecentEntry } from './hooks'
export type {
  PorticoHooks,
  TapOnlyHooks,
  LoginMethod,
  LoginMethodsContext,
  AuthContext,
  ActionContext,
  ReturnPathContext,
  ReturnClaim,
  WalletConnectorEntry,
  FundingMethodEntry,
} from './hooks'
export type { MethodDescriptor } from './methods'
export { createStore } from './store'
export { lazyOnce } from './lazy'
export type { Lazy } from './lazy'
export type { Store } from './store'
export type { TextOverrides, TextsOverride } from './texts'
export type { PorticoEvents, PorticoEmitter } from './events'
export { MAINNET } from './config'
export type { PorticoConfig, ResolvedConfig, Appearance, LegalConfig, AllowlistConfig, Chain, Logo, TokenStorage } from './config'
export type { Api, ApiRequest, RequestOptions, HttpMethod } from './transport'
export { memoryStorage } from './session'
export type { Session, AuthResult } from './session'
export { normaliseFields, secondsToDate } from './user'
export type {
  User,
  UserFields,
  LinkedAccount,
  BaseAccount,
  EmailAccount,
  PhoneAccount,
  WalletAccount,
  SmartWalletAccount,
  CrossAppAccount,
  OAuthAccount,
  CustomAuthAccount,
  FarcasterAccount,
  PasskeyAccount,
  TelegramAccount,
  OtherAccount,
  MfaMethod,
} from './user'
export { ERROR_SCREEN } from './screens'
export type { Navigator, NavigatorState, ScreenDefinition, ScreenEntry, FlowResult, Intent } from './screens'
export { PorticoError, PorticoAbortError, isPorticoError, toPorticoError, defineErrors } from './errors'
export type {
  PorticoErrorCode,
  IdentityErrorCode,
  WalletErrorCode,
  ClientErrorCode,
  ErrorKind,
  ErrorView,
  ErrorContext,
  ErrorDeclarations,
  ErrorTexts,
  PorticoErrorOptions,
} from './errors'
export type * from './wire'
