/**
 * portico/ui — React bindings, the modal shell, the generic screens and the shared components
 * plugin authors build their screens with. Import the stylesheet once: `portico/ui/styles.css`.
 * Safe to import during server rendering (no `window` at module load).
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

// Modal and screens
export { Modal, screenComponent } from './modal/modal'
export { Landing, planLanding, LegalLine, MAX_ROWS, MAX_ROWS_WITH_OVERFLOW } from './screens/landing'
export type { LoginInputProps, LandingPlan, LandingView } from './screens/landing'
export { UI_TEXTS } from './strings'

// Shared components for plugin screens
export { ScreenLayout } from './components/layout'
export type { ScreenLayoutProps } from './components/layout'
export { Button } from './components/button'
export type { ButtonProps } from './components/button'
export { TextInput } from './components/text-input'
export type { TextInputProps } from './components/text-input'
export { CodeInput, CODE_NUMERIC_ERROR } from './components/code-input'
export { CodeEntryScreen, CODE_LENGTH, RESEND_COOLDOWN_MS, CODE_RESET_MS } from './components/code-entry'
export type { CodeEntryScreenProps, CodeEntryStatus } from './components/code-entry'
export type { CodeInputProps, CodeInputHandle } from './components/code-input'
export { Chip, CHIP_TEXTS } from './components/chip'
export type { ChipProps } from './components/chip'
export { CopyButton } from './components/copy-button'
export type { CopyButtonProps } from './components/copy-button'
export { Spinner, StatusIcon } from './components/status'
export type { SpinnerProps, StatusIconProps } from './components/status'
export { ListButton } from './components/list-button'
export type { ListButtonProps } from './components/list-button'
export { QrSlot } from './components/qr-slot'
export type { QrSlotProps } from './components/qr-slot'
export * as icons from './components/icons'
