/**
 * portico/ui/core — everything of `portico/ui` that a page needs before the modal opens: the
 * provider and app-facing hooks, the modal shell (the dialog and every screen load lazily),
 * the landing entries' icons (by name), constants and `lazyComponent`. No screen component,
 * no screen-facing hook (`useScreen`, `useCompleteLogin`), no screen texts and not the icon
 * set (`icons`): those are in `portico/ui` (which re-exports all of this too).
 *
 * Why a second entry: with code splitting, esbuild puts every module that an entry of the
 * initial load re-exports, and that any lazy chunk uses, into the initial load. A host app or a
 * plugin entry that imports `portico/ui` therefore ships the shared screen components
 * (layout, buttons, code boxes, the landing) up front; importing from `portico/ui/core`
 * instead keeps them in the lazy chunks of the screens that use them. Vite and Rollup are not
 * affected; plugin screens (loaded lazily) import from `portico/ui`.
 *
 * For the same reason this file re-exports nothing that only screens use: esbuild assigns a
 * module to the initial load when an initial module imports it (re-exports included), and
 * keeps in it every part some lazy chunk uses. `UI_TEXTS` here would put the generic screens'
 * texts into every host's initial load, `icons` all fifteen icons (issue 11: 21.9 -> ... KiB).
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

// Screen-facing hooks: `useScreen`, `useCompleteLogin`, `goToLanding` are in `portico/ui`
export type { ScreenProps, CompleteOptions } from './screen-context'
export { attachUi, CLOSE_DELAY_MS, NEXT_SCREEN_DELAY_MS } from './internal/attach'
export type { AttachOptions, UiSnapshot } from './internal/attach'

// Modal shell and constants (the landing's layout, `planLanding`, is in `portico/ui`)
export { Modal, screenComponent } from './modal/modal'
export type { LoginInputProps, LandingPlan, LandingView } from './screens/landing-plan'
export { CODE_LENGTH, RESEND_COOLDOWN_MS, CODE_RESET_MS } from 'portico/plugins/code'
export { lazyComponent } from './internal/lazy'
export type { PreloadableComponent } from './internal/lazy'
// The icons a plugin's landing entry draws (the whole set, `icons`, is in `portico/ui`)
export { MailIcon, PhoneIcon, WalletIcon, UserIcon, CopyIcon, KeyIcon } from './components/entry-icons'
