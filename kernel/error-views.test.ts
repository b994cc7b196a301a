/** The kernel's own error views (./error-views.ts) and the basic one shown until they are in. */
import { describe, expect, it } from 'vitest'
import { PorticoError, basicErrorView } from './errors'
import { ERROR_TEXTS } from './error-texts'
import { defaultErrorView } from './error-views'

describe('default error views (part 1 section 8)', () => {
  const v = (code: string, o: { status?: number; data?: Record<string, unknown> } = {}, message = 'server says') =>
    defaultErrorView(new PorticoError(code, message, o))
  it('maps every listed condition', () => {
    expect(v('client_request_timeout')).toMatchObject({ title: 'Timed out', detail: 'server says', cta: 'Try again' })
    expect(v('invalid_data', { status: 422 })).toMatchObject({ title: 'Something went wrong', detail: 'server says' })
    expect(v('invalid_captcha')).toMatchObject({ title: 'Please try again.' })
    expect(v('disallowed_login_method')).toMatchObject({ title: 'Not allowed', detail: 'server says', cta: 'Try another method' })
    expect(v('allowlist_rejected')).toMatchObject({ screen: 'allowlist-rejection' })
    expect(v('captcha_failure')).toMatchObject({ title: 'You did not pass CAPTCHA. Please try again.' })
    expect(v('captcha_timeout')).toMatchObject({ title: 'Something went wrong! Please try again later.' })
    expect(v('linked_to_another_user')).toMatchObject({
      title: 'Authentication failed',
      detail: 'This account has already been linked to another user.',
    })
    // Method-neutral: the SMS plugin declares the spec's region text for its refusal.
    expect(v('not_supported')).toMatchObject({ title: 'Not supported', detail: 'server says', cta: 'Try another method', screen: 'error' })
    expect(v('method_not_supported')).toMatchObject({ title: 'Not supported', detail: 'server says', screen: 'error' })
    expect(v('too_many_requests')).toMatchObject({ title: 'Request failed', detail: 'Too many attempts.', cta: 'Try again later' })
    expect(v('max_accounts_reached')).toMatchObject({ screen: 'user-limit' })
    expect(v('max_accounts_reached', { data: { reason: 'development_mode' } })).toMatchObject({ screen: 'development-mode' })
    expect(v('user_does_not_exist')).toMatchObject({ screen: 'account-not-found' })
    // The account plugin declares the transfer screen; the kernel has none.
    expect(v('account_transfer_required', { data: { nonce: 'n' } }).screen).toBeUndefined()
    expect(v('disallowed_plus_email')).toMatchObject({ inline: true })
    expect(v('INSUFFICIENT_BALANCE')).toMatchObject({ title: 'Insufficient balance' })
    expect(v('TRANSACTION_FAILURE')).toMatchObject({ title: 'Transaction failure' })
    expect(v('whatever')).toMatchObject({ title: 'Something went wrong', detail: 'Try again later' })
  })
})

describe('basic error view', () => {
  it('is the generic view, with the texts given', () => {
    expect(basicErrorView()).toEqual(defaultErrorView(new PorticoError('whatever', 'x')))
    expect(basicErrorView({ ...ERROR_TEXTS, somethingWentWrong: 'Oops' }).title).toBe('Oops')
  })
})
