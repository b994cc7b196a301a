/**
 * portico/kits/mfa — what the MFA plugin (portico/plugins/mfa) and its method plugins
 * (mfa-totp, mfa-sms, mfa-passkey) share: the code rule (the code kit's, with the MFA texts),
 * the code boxes, a method's enrolment code step, the screen ids a method opens, the method
 * plugins' API shape and the MFA error codes. A kit, not a plugin. See ./README.md.
 */
import { lazyComponent } from 'portico/ui'

export { validateMfaCode } from './code'
export { MFA_SCREENS, MFA_ERRORS, mfaError, methodPluginId } from './ids'
export type { MfaType, MfaMethodPluginApi } from './ids'
export type { MfaCodeBoxesProps, MfaEnrolmentCodeProps } from './code-boxes'

type Boxes = typeof import('./code-boxes')
/**
 * The MFA code boxes (six numeric boxes with the MFA rule texts), loaded on first render (or
 * `MfaCodeBoxes.preload()`), so the code boxes stay out of a method's initial load.
 */
export const MfaCodeBoxes = lazyComponent(() => import('./code-boxes').then((m) => m.MfaCodeBoxes)) as unknown as Boxes['MfaCodeBoxes'] & {
  preload(): Promise<unknown>
}
/** A method's enrolment code step: the boxes, the wrong-code and rule messages, busy while checked (loaded on first render). */
export const MfaEnrolmentCode = lazyComponent(() => import('./code-boxes').then((m) => m.default)) as unknown as Boxes['default'] & {
  preload(): Promise<unknown>
}
