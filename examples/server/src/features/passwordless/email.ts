import { errors } from '../../core/errors'
import type { CodeFlow } from './flow'

/**
 * A standard address: local@label.label..., no whitespace. Linear time: every character
 * can belong to only one part (the local part has no '@', labels have no '.'), so nothing
 * backtracks; and the length is checked first (RFC 5321: 254 at most).
 */
export const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
export const EMAIL_MAX = 254

export function normaliseEmail(value: string, field = 'email', disablePlus = false): string {
  const v = value.trim().toLowerCase()
  if (v.length > EMAIL_MAX || !EMAIL.test(v)) throw errors.field(field, 'Invalid email address')
  if (disablePlus && v.split('@')[0].includes('+')) throw errors.plusEmail()
  return v
}

/** Passwordless e-mail: /passwordless/{init,authenticate,link,update,unlink,transfer}. */
export const emailFlow: CodeFlow = {
    base: '/passwordless',
    channel: 'email',
    method: 'email',
    accountType: 'email',
    maxLength: 320,
    fields: { id: 'email', updateOld: 'oldAddress', updateNew: 'newAddress', unlink: 'address' },
    normalise: (v, field, app) => normaliseEmail(v, field, !!app.disablePlusEmails),
    account: (address) => ({
      type: 'email',
      identifier: address,
      data: { address },
      transferable: true,
      linkMethod: 'email',
      displayName: address,
    }),
}
