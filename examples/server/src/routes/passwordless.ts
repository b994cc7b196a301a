import type { Api, ServerCtx } from '../context'
import { errors } from '../errors'
import { fieldError, registerCodeFlow } from './code-flow'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function normaliseEmail(value: string, field = 'email', disablePlus = false): string {
  const v = value.trim().toLowerCase()
  if (!EMAIL.test(v) || v.length > 254) throw fieldError(field, 'Invalid email address')
  if (disablePlus && v.split('@')[0].includes('+')) throw errors.plusEmail()
  return v
}

/** Passwordless e-mail: /passwordless/{init,authenticate,link,update,unlink,transfer}. */
export function registerPasswordless(api: Api, ctx: ServerCtx) {
  registerCodeFlow(api, ctx, {
    base: '/passwordless',
    channel: 'email',
    method: 'email',
    accountType: 'email',
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
  })
}
