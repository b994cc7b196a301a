// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, screen, waitFor } from '@testing-library/react'
import { createTestKernel, pluginContract, renderScreen, wireUser } from 'portico/testing'
import { mfa } from 'portico/plugins/mfa'
import { mfaTotp } from './index'
import { MFA_TOTP_TEXTS } from './strings'

afterEach(cleanup)
pluginContract(() => mfaTotp())

const SECRET = 'JBSWY3DPEHPK3PXP'
const URL = `otpauth://totp/Test%20App:a%40example.com?issuer=Test%20App&secret=${SECRET}&algorithm=SHA1&digits=6&period=30`

async function setup() {
  const t = await createTestKernel({ user: wireUser(), plugins: [mfa(), mfaTotp()] })
  t.net.on('POST', '/mfa/totp/init', { auth_url: URL, secret: SECRET })
  return t
}

describe('mfa-totp', () => {
  it('headless: init answers authUrl and secret; submit checks the code rules before calling', async () => {
    const { kernel, net } = await setup()
    expect(await kernel.plugin('mfa-totp').initEnrollment()).toEqual({ authUrl: URL, secret: SECRET })
    await expect(kernel.plugin('mfa-totp').submitEnrollment({ code: '12345' })).rejects.toThrow('Passcode must be exactly 6 numbers')
    await expect(kernel.plugin('mfa-totp').submitEnrollment({ code: '12 a456' })).rejects.toThrow('Passcode can only be numbers')
    expect(net.callsTo('POST', '/mfa/totp/enroll')).toHaveLength(0)
    net.on('POST', '/mfa/totp/enroll', { user: wireUser({ mfa_methods: [{ type: 'totp', verified_at: 1 }] }) })
    await kernel.plugin('mfa-totp').submitEnrollment({ code: ' 123 456' })
    expect(net.callsTo('POST', '/mfa/totp/enroll')[0].body).toEqual({ code: '123456' })
  })

  it('one secret per enrolment: concurrent and repeated inits share it; a finished enrolment starts afresh', async () => {
    const { kernel, net } = await setup()
    const api = kernel.plugin('mfa-totp')
    const [a, b] = await Promise.all([api.initEnrollment(), api.initEnrollment()])
    expect(a).toBe(b)
    await api.initEnrollment()
    expect(net.callsTo('POST', '/mfa/totp/init')).toHaveLength(1)
    net.on('POST', '/mfa/totp/enroll', { user: wireUser({ mfa_methods: [{ type: 'totp', verified_at: 1 }] }) })
    await api.submitEnrollment({ code: '123456' })
    await api.initEnrollment()
    expect(net.callsTo('POST', '/mfa/totp/init')).toHaveLength(2)
  })

  it('the enrolment screen shows the QR code and the secret read from the otpauth URI', async () => {
    const { kernel } = await setup()
    await renderScreen(kernel, 'mfa-totp')
    await screen.findByText(MFA_TOTP_TEXTS.enrolTitle)
    await waitFor(() => expect((document.querySelector('[data-mfa-totp-secret]') as HTMLInputElement)?.value).toBe(SECRET))
    await waitFor(() => expect(document.querySelector('svg.portico-qr-code')).toBeTruthy())
  })

  it('shows the whole secret over wrapped lines, labelled and copyable (a one-line field cut it off)', async () => {
    const { kernel } = await setup()
    await renderScreen(kernel, 'mfa-totp')
    const field = (await waitFor(() => {
      const el = document.querySelector('[data-mfa-totp-secret]') as HTMLTextAreaElement | null
      expect(el?.value).toBe(SECRET)
      return el!
    }))
    expect(field.tagName).toBe('TEXTAREA')
    expect(field.readOnly).toBe(true)
    expect(Number(field.getAttribute('rows'))).toBeGreaterThanOrEqual(Math.ceil(SECRET.length / 20))
    expect(field.getAttribute('style')).toBeNull()
    expect(screen.getByLabelText(MFA_TOTP_TEXTS.secretLabel)).toBe(field)
    expect(screen.getByRole('button', { name: MFA_TOTP_TEXTS.copy })).toBeTruthy()
  })
})
