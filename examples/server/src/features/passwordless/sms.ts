import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { errors } from '../../core/errors'
import type { CodeFlow } from './flow'

/** E.164 (default country US, as the client's default). */
export function normalisePhone(value: string, field = 'phoneNumber'): string {
  if (value.length > 64) throw errors.field(field, 'Invalid phone number')
  const p = parsePhoneNumberFromString(value.trim(), 'US')
  if (!p || !p.isValid()) throw errors.field(field, 'Invalid phone number')
  return p.number
}

/** Passwordless SMS: /passwordless_sms/{init,authenticate,link,update,unlink,transfer}. */
export const smsFlow: CodeFlow = {
    base: '/passwordless_sms',
    channel: 'sms',
    method: 'sms',
    accountType: 'phone',
    maxLength: 64,
    fields: { id: 'phoneNumber', updateOld: 'old_phone_number', updateNew: 'new_phone_number', unlink: 'phoneNumber' },
    normalise: (v, field) => normalisePhone(v, field),
    account: (number) => ({
      type: 'phone',
      identifier: number,
      data: { number },
      transferable: true,
      linkMethod: 'sms',
      displayName: number,
    }),
}
