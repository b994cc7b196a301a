/**
 * External wallets next to embedded ones (issue 18): the one-wallet-per-user link rule counts
 * linked external wallets only, so a user whose embedded wallet the provider created can still
 * link one external wallet (SIWE), and no second one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSiweMessage } from 'viem/siwe'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Store } from '../src/core/store'
import { DEMO, ORIGIN, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

let store: Store
let s: TestServer
beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store)
}, 60_000)
afterAll(async () => {
  await s?.close()
  await store?.close()
})

async function siweLink(token: string) {
  const account = privateKeyToAccount(generatePrivateKey())
  const init = await s.call('/api/v1/siwe/init', { body: { address: account.address }, token })
  const message = createSiweMessage({ address: account.address, chainId: 1, domain: new URL(ORIGIN).host, nonce: init.body.nonce, uri: ORIGIN, version: '1', issuedAt: new Date() })
  const res = await s.call('/api/v1/siwe/link', {
    body: { message, signature: await account.signMessage({ message }), chainId: 'eip155:1', walletClientType: 'metamask', connectorType: 'injected' },
    token,
  })
  return { res, account }
}

describe('linking an external wallet beside an embedded one', () => {
  it('an embedded wallet does not count; a second external wallet does', async () => {
    const login = await s.emailLogin(uniqueEmail('ext'))
    expect(login.status).toBe(200)
    const { token, user } = login.body
    // The provider's embedded wallet, as routes/wallets.ts records it.
    const embedded = privateKeyToAccount(generatePrivateKey()).address.toLowerCase()
    const t = Math.floor(Date.now() / 1000)
    await store.query(
      `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at) VALUES ($1, $2, 'wallet', $3, $4, $5, $5, $5)`,
      [user.id, DEMO, `ethereum:${embedded}`, JSON.stringify({ address: embedded, chain_type: 'ethereum', wallet_client_type: 'privy', connector_type: 'embedded', wallet_index: 0 }), t],
    )
    const first = await siweLink(token!)
    expect(first.res.status).toBe(200)
    const wallets = first.res.body.user.linked_accounts.filter((a: { type: string }) => a.type === 'wallet')
    expect(wallets.map((a: { connector_type: string }) => a.connector_type).sort()).toEqual(['embedded', 'injected'])
    const second = await siweLink(token!)
    expect(second.res.status).toBe(400)
    expect(second.res.body.code).toBe('cannot_link_more_of_type')
  })
})
