// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import type { WireLinkedAccount } from 'portico'
import { createTestKernel, pluginContract, renderScreen, wireUser } from 'portico/testing'
import { mfa } from 'portico/plugins/mfa'
import { mfaPasskey, passkeysShown } from './index'
import { MFA_PASSKEY_TEXTS } from './strings'

afterEach(cleanup)
pluginContract(() => mfaPasskey())

const T = MFA_PASSKEY_TEXTS
function wirePasskey(id: string): WireLinkedAccount {
  return { type: 'passkey', credential_id: id, authenticator_name: null, created_with_browser: 'Chrome', created_with_os: 'Linux', enrolled_in_mfa: false, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 } as unknown as WireLinkedAccount
}
const fakeBrowser = () => ({ startRegistration: async () => ({ id: 'new', rawId: 'new', type: 'public-key', response: {} }) })

async function setup(ids: string[]) {
  const enrolled: string[] = []
  return {
    enrolled,
    ...(await createTestKernel({ user: wireUser({ accounts: ids.map(wirePasskey) }), plugins: [mfa({ onEnrollmentSuccess: ({ method }) => enrolled.push(method) }), mfaPasskey({ relyingParty: 'localhost', loadWebAuthn: async () => fakeBrowser() })] })),
  }
}

describe('mfa-passkey', () => {
  it('list: 3 passkeys, or 2 when more than 3', () => {
    expect([1, 2, 3, 4, 5].map(passkeysShown)).toEqual([3, 3, 3, 2, 2])
  })

  it('4 passkeys: 2 shown, Enable passkeys and Add new passkey; enabling enrols every credential id', async () => {
    const { kernel, net, enrolled } = await setup(['a', 'b', 'c', 'd'])
    net.on('POST', '/mfa/passkeys/enroll', { user: wireUser({ accounts: ['a', 'b', 'c', 'd'].map(wirePasskey), mfa_methods: [{ type: 'passkey', verified_at: 1 }] }) })
    await renderScreen(kernel, 'mfa-passkey')
    await waitFor(() => expect(document.querySelectorAll('[data-credential-id]')).toHaveLength(2))
    expect(screen.getByRole('button', { name: T.addNewPasskey })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: T.enablePasskeys }))
    await screen.findByText(T.added)
    expect(net.callsTo('POST', '/mfa/passkeys/enroll')[0].body).toEqual({ credential_ids: ['a', 'b', 'c', 'd'] })
    expect(enrolled).toEqual(['passkey'])
  })

  it("5 passkeys: 'Add new passkey' hidden", async () => {
    const { kernel } = await setup(['a', 'b', 'c', 'd', 'e'])
    await renderScreen(kernel, 'mfa-passkey')
    await waitFor(() => expect(document.querySelector('[data-mfa-passkey-list]')).toBeTruthy())
    expect(screen.queryByRole('button', { name: T.addNewPasskey })).toBeNull()
  })

  it("no passkey: the intro; 'Add a new passkey' links one, then enrols all ids", async () => {
    const { kernel, net } = await setup([])
    net.on('POST', '/passkeys/link/init', { relying_party: 'localhost', options: { challenge: 'c1' } })
    net.on('POST', '/passkeys/link', { user: wireUser({ accounts: [wirePasskey('new')] }) })
    net.on('POST', '/mfa/passkeys/enroll', { user: wireUser({ accounts: [wirePasskey('new')], mfa_methods: [{ type: 'passkey', verified_at: 1 }] }) })
    await renderScreen(kernel, 'mfa-passkey')
    fireEvent.click(await screen.findByRole('button', { name: T.addANewPasskey }))
    await screen.findByText(T.added)
    expect(net.callsTo('POST', '/passkeys/link')[0].body).toMatchObject({ relying_party: 'localhost', challenge: 'c1' })
    expect(net.callsTo('POST', '/mfa/passkeys/enroll')[0].body).toEqual({ credential_ids: ['new'] })
  })
})
