/** The shape one code flow (e-mail, SMS) is configured by: routes.ts serves it, email.ts and sms.ts fill it in. */
import type { AppSettings } from '../../config'
import type { AccountInput } from '../../core/identity'

export interface CodeFlow {
  base: string
  channel: 'email' | 'sms'
  method: 'email' | 'sms'
  accountType: 'email' | 'phone'
  /** Body field names per call. */
  fields: {
    id: string
    updateOld: string
    updateNew: string
    unlink: string
  }
  /** Longest accepted identifier (checked before any pattern runs). */
  maxLength: number
  /** Normalise an identifier or throw 422 invalid_data naming `field`. */
  normalise(value: string, field: string, app: AppSettings): string
  account(identifier: string): AccountInput
}
