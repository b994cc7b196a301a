/**
 * portico/ui/core — everything of `portico/ui` that a page needs before the modal opens: the
 * provider and hooks, the modal shell (the dialog and every screen load lazily), texts,
 * icons, constants and `lazyComponent`. No screen component and not the landing's layout:
 * those are in `portico/ui` (which re-exports all of this too).
 *
 * Why a second entry: with code splitting, esbuild puts every module that an entry of the
 * initial load re-exports, and that any lazy chunk uses, into the initial load. A host app or a
 * plugin entry that imports `portico/ui` therefore ships the shared screen components
 * (layout, buttons, code boxes, the landing) up front; importing from `portico/ui/core`
 * instead keeps them in the lazy chunks of the screens that use them. Vite and Rollup are not
 * affected; plugin screens (loaded lazily) import from `portico/ui`.
 */
// Provider and app-facing hooks
export {
  PorticoProvider,
  usePortico,
  useLogin,
  useLinkAccount,
  useLogout,
  useUser,
  useModalStatus,
  useKernel,
  loginEntries,
  useStore,
  usePlugin,
  usePluginState,
  useTexts,
  LOADING_SCREEN,
} from './context'
export type { PorticoProviderProps, LoginSuccess, FlowCallbacks } from './context'

// Screen-facing hooks
export { useScreen, useCompleteLogin, goToLanding } from './screen-context'
export type { ScreenProps, CompleteOptions } from './screen-context'
export { attachUi, CLOSE_DELAY_MS, NEXT_SCREEN_DELAY_MS } from './internal/attach'
export type { AttachOptions, UiSnapshot } from './internal/attach'

// Modal shell, texts, constants (the landing's layout, `planLanding`, is in `portico/ui`)
export { Modal, screenComponent } from './modal/modal'
export type { LoginInputProps, LandingPlan, LandingView } from './screens/landing-plan'
export { UI_TEXTS } from './strings'
export { CHIP_TEXTS } from './components/chip-texts'
export { CODE_NUMERIC_ERROR } from './components/code-texts'
export { CODE_LENGTH, RESEND_COOLDOWN_MS, CODE_RESET_MS } from 'portico/plugins/code'
export { lazyComponent } from './internal/lazy'
export type { PreloadableComponent } from './internal/lazy'
export * as icons from './components/icons'
