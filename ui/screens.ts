/**
 * portico/ui/screens — the building blocks plugin authors draw their screens with: the shared
 * components (layout, buttons, inputs, code boxes, chips, lists, QR slot), the screen-facing
 * hooks (`useScreen`, `useCompleteLogin`, `goToLanding`), the generic screens' texts, the icon
 * set and the landing. It re-exports all of `portico/ui` too, so a screen file needs one import.
 *
 * Import it from a plugin's lazily loaded screens, not from a host app or a plugin's entry:
 * what an initial module imports from here lands in the page's first load (see ./index.ts).
 */
export * from './index'

// Screen-facing hooks, screen texts and the icon set (not in `portico/ui`: see ./index.ts)
export { useScreen, useCompleteLogin, goToLanding } from './screen-context'
export { UI_TEXTS } from './strings'
// The 'kernel' text namespace: the generic error views' texts (out of `portico` since 0.3.0).
export { ERROR_TEXTS } from 'portico/internal'
export { CHIP_TEXTS } from './components/chip-texts'
export { CODE_NUMERIC_ERROR } from './components/code-texts'
export * as icons from './components/icons'

// The landing screen (loaded lazily by the modal)
export { Landing, LegalLine } from './screens/landing'
export { planLanding, MAX_ROWS, MAX_ROWS_WITH_OVERFLOW } from './screens/landing-plan'

// Shared components for plugin screens
export { ScreenLayout } from './components/layout'
export type { ScreenLayoutProps } from './components/layout'
export { Button } from './components/button'
export type { ButtonProps } from './components/button'
export { TextInput } from './components/text-input'
export type { TextInputProps } from './components/text-input'
export { CodeInput } from './components/code-input'
export { CodeEntryScreen } from './components/code-entry'
export type { CodeEntryScreenProps, CodeEntryStatus } from './components/code-entry'
export type { CodeInputProps, CodeInputHandle } from './components/code-input'
export { Chip } from './components/chip'
export type { ChipProps } from './components/chip'
export { CopyButton } from './components/copy-button'
export type { CopyButtonProps } from './components/copy-button'
export { Spinner, StatusIcon } from './components/status'
export type { SpinnerProps, StatusIconProps } from './components/status'
export type { IconProps } from './components/entry-icons'
export { ListButton } from './components/list-button'
export type { ListButtonProps } from './components/list-button'
export { QrSlot } from './components/qr-slot'
export type { QrSlotProps } from './components/qr-slot'
