import { parsePhoneNumberFromString } from 'libphonenumber-js'
import type { Api, ServerCtx } from '../context'
import { fieldError, registerCodeFlow } from './code-flow'

/** E.164 (default country US, as the client's default). */
export function normalisePhone(value: string, field = 'phoneNumber'): string {
  if (value.length > 64) throw fieldError(field, 'Invalid phone number')
  const p = parsePhoneNumberFromString(value.trim(), 'US')
  if (!p || !p.isValid()) throw fieldError(field, 'Invalid phone number')
  return p.number
}

/** Passwordless SMS: /passwordless_sms/{init,authenticate,link,update,unlink,transfer}. */
export function registerPasswordlessSms(api: Api, ctx: ServerCtx) {
  registerCodeFlow(api, ctx, {
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
  })
}
