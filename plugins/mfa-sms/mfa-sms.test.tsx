// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { createTestKernel, pluginContract, renderScreen, wireUser } from 'portico/testing'
import { mfa } from 'portico/plugins/mfa'
import { mfaSms } from './index'
import { MFA_SMS_TEXTS } from './strings'

afterEach(cleanup)
pluginContract(() => mfaSms())

describe('mfa-sms', () => {
  it('the number screen shows the consent text with the app name; Continue texts the code; back returns to the number', async () => {
    const { kernel, net } = await createTestKernel({ user: wireUser(), plugins: [mfa(), mfaSms()] })
    net.on('POST', '/mfa/passwordless_sms/init', { success: true })
    await renderScreen(kernel, 'mfa-sms')
    expect(await screen.findByText(MFA_SMS_TEXTS.consent.replace('{app}', kernel.config.name))).toBeTruthy()
    fireEvent.change(screen.getByLabelText(MFA_SMS_TEXTS.phoneLabel), { target: { value: '+1 415 555 0100' } })
    fireEvent.click(screen.getByRole('button', { name: MFA_SMS_TEXTS.continue }))
    await waitFor(() => expect(kernel.screens.getState().current?.id).toBe('mfa-sms-code'))
    expect(net.callsTo('POST', '/mfa/passwordless_sms/init')[0].body).toEqual({ action: 'enroll', phoneNumber: '+1 415 555 0100' })
    kernel.screens.back()
    expect(kernel.screens.getState().current?.id).toBe('mfa-sms')
  })

  it('headless submit checks the code rules', async () => {
    const { kernel } = await createTestKernel({ user: wireUser(), plugins: [mfa(), mfaSms()] })
    await expect(kernel.plugin('mfa-sms').submitEnrollment({ phoneNumber: '+14155550100', code: '1234567' })).rejects.toThrow('Passcode must be exactly 6 numbers')
  })
})
