/**
 * portico/ui — React bindings, the modal shell, the generic screens and the shared components
 * plugin authors build their screens with. Import the stylesheet once: `portico/ui/styles.css`.
 * Safe to import during server rendering (no `window` at module load).
 *
 * `portico/ui/core` is the part without screen components (provider, hooks, modal shell,
 * the landing entries' icons): import from it in a host app and in a plugin's entry to keep the screen
 * components out of the initial load with esbuild (see ./core.ts); plugin screens, which load
 * lazily, import from here.
 */
export * from './core'

// Screen-facing hooks, screen texts and the icon set (not in `portico/ui/core`: see ./core.ts)
export { useScreen, useCompleteLogin, goToLanding } from './screen-context'
export { UI_TEXTS } from './strings'
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
