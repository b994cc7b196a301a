/**
 * portico/ui — the host app's entry: the provider and the app-facing hooks (`usePortico`,
 * `useLogin`, `useUser` …), the modal shell (the dialog and every screen load lazily), the
 * landing entries' icons (by name), the success delays and `lazyComponent`. Safe to import during server
 * rendering (no `window` at module load). Plugin screens import their building blocks from
 * `portico/ui/screens`.
 *
 * Why two entries: with code splitting, esbuild puts every module that an entry of the
 * initial load re-exports, and that any lazy chunk uses, into the initial load. If this entry
 * re-exported the screen components (layout, buttons, code boxes, the landing), every host
 * would ship them up front; kept in `portico/ui/screens`, they stay in the lazy chunks of the
 * screens that use them. Vite and Rollup are not affected.
 *
 * For the same reason this file re-exports nothing that only screens use: esbuild assigns a
 * module to the initial load when an initial module imports it (re-exports included), and
 * keeps in it every part some lazy chunk uses. `UI_TEXTS` here would put the generic screens'
 * texts into every host's initial load, `icons` all fifteen icons.
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

// Screen-facing hooks: `useScreen`, `useCompleteLogin`, `goToLanding` are in `portico/ui/screens`
export type { ScreenProps, CompleteOptions } from './screen-context'
export { attachUi, CLOSE_DELAY_MS, NEXT_SCREEN_DELAY_MS } from './internal/attach'
export type { AttachOptions, UiSnapshot } from './internal/attach'

// Modal shell (the landing's layout, `planLanding`, and the code boxes' constants are in `portico/ui/screens`)
export { Modal, screenComponent } from './modal/modal'
export type { LoginInputProps, LandingPlan, LandingView } from './screens/landing-plan'
// The code rule every code method shares (part 1 sections 4 and 9), defined once: the code
// boxes (./components/code-entry.tsx) and the code kit's flow (`portico/kits/code`) read these.
export { CODE_LENGTH, RESEND_COOLDOWN_MS, CODE_RESET_MS } from './internal/attach'
export { lazyComponent } from './internal/lazy'
export type { PreloadableComponent } from './internal/lazy'
// The icons a plugin's landing entry draws (the whole set, `icons`, is in `portico/ui/screens`)
export { MailIcon, PhoneIcon, WalletIcon, UserIcon, CopyIcon, KeyIcon } from './components/entry-icons'
