/**
 * Cross-app login: a user of one Portico app (the provider) logs in to another (the requester)
 * with that account, both apps on this server.
 *
 * - GET /apps/{requesterAppId}/cross-app/connections → { connections: [{ provider_app_id,
 *   provider_app_name, provider_app_icon_url, provider_app_custom_api_url, read_only,
 *   transact_url }] }; GET /apps/{providerAppId}/cross-app/details → { name, icon_url }.
 * - The requester's modal opens the provider's /oauth/transact page in a popup (token and
 *   request query parameters). There the logged-in provider user consents, and the page calls
 *   POST /cross-app/authorize (provider app, bearer) { requester_app_id, code_challenge,
 *   origin, action } → { code, origin }: a one-time code (2 minutes, PKCE S256, for that
 *   requester and its origin) it posts back to the opener.
 * - POST /cross-app/authenticate | link (requester app) { provider_app_id, code, code_verifier }:
 *   the code is used once, in the login's transaction. The linked account ('cross_app') has
 *   subject (the provider user's id), provider_app_id, embedded_wallets and smart_wallets (the
 *   provider user's embedded Ethereum wallets and linked smart wallets, `{ address }`, read at
 *   each login and link).
 * - POST /cross-app/unlink { provider_app_id, subject }. Not transferable (spec part 1).
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { AppSettings } from '../../config'
import { type C, type ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { linkAccount, loginWithAccount, unlinkAccount, type AccountInput } from '../../core/identity'
import type { Queryable } from '../../core/store'
import { now, randomToken, sha256 } from '../../core/identity/tokens'
import { id, mode } from '../../core/validate'
import { router } from '../../core/router'
import { currentGuest } from '../../core/auth'
import { insertCode, liveCode, providerWallets, useCode } from './repo'

export const CROSS_APP_CODE_TTL_S = 120

interface Connection {
  provider_app_id: string
  provider_app_name: string
  provider_app_icon_url: string | null
  provider_app_custom_api_url: string | null
  read_only: boolean
  transact_url: string
}

export function connectionsOf(ctx: ServerCtx, requester: AppSettings): Connection[] {
  return (requester.crossApp?.connections ?? []).flatMap((c) => {
    const p = ctx.apps.get(c.providerAppId)
    if (!p || !p.allowedOrigins[0]) return []
    return [
      {
        provider_app_id: p.id,
        provider_app_name: p.name,
        provider_app_icon_url: p.logoUrl ?? null,
        provider_app_custom_api_url: null,
        read_only: c.readOnly === true,
        transact_url: c.transactUrl ?? `${p.allowedOrigins[0]}/oauth/transact`,
      },
    ]
  })
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')


export function crossAppRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  const appFor = (appId: string) => {
    const a = ctx.apps.get(appId)
    if (!a) throw errors.invalidAppId(404, 'Unknown app id')
    return a
  }

  r.get('/apps/:appId/cross-app/connections', { summary: 'Cross-app: provider apps this app logs users in with' }, (c) =>
    c.json({ connections: connectionsOf(ctx, appFor(c.req.param('appId') ?? '')) }))
  r.get('/apps/:appId/cross-app/details', { summary: 'Cross-app: a provider app’s name and icon' }, (c) => {
    const a = appFor(c.req.param('appId') ?? '')
    return c.json({ name: a.name, icon_url: a.logoUrl ?? null })
  })

  r.post('/cross-app/authorize', { summary: 'Cross-app (provider app): a one-time code for the logged-in user, for a requester app', body: z.object({ requester_app_id: id(64), code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/), origin: id(512), action: z.enum(['login', 'link', 'transact']).nullish() }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      const provider = c.get('app')
      const requester = ctx.apps.get(b.requester_app_id)
      const connection = requester ? connectionsOf(ctx, requester).find((x) => x.provider_app_id === provider.id) : undefined
      if (!requester || !connection || !(provider.crossApp?.allowedRequesters ?? []).includes(requester.id)) {
        throw errors.invalidData('This app is not a cross-app provider for the requesting app')
      }
      // A read-only connection logs users in and links, but is never transacted against.
      if (b.action === 'transact' && connection.read_only) throw errors.invalidData('Cannot transact against a read-only provider app')
      // The code goes back only to a page of the requester (the popup's opener).
      if (!requester.allowedOrigins.includes(b.origin)) throw errors.invalidData('Origin is not allowed for the requesting app')
      const code = randomToken(32)
      const t = now()
      await insertCode(ctx.store, { codeHash: sha256(code), providerAppId: provider.id, requesterAppId: requester.id, userId: auth.userId, codeChallenge: b.code_challenge, origin: b.origin, t, expiresAt: t + CROSS_APP_CODE_TTL_S })
      return c.json({ code, origin: b.origin })
    })

  /** The code's row when it is live and the verifier matches (nothing written). */
  async function verify(c: C, b: { provider_app_id: string; code: string; code_verifier: string }) {
    const app = c.get('app')
    if (!connectionsOf(ctx, app).some((x) => x.provider_app_id === b.provider_app_id)) {
      throw errors.disallowedMethod('cross_app')
    }
    const row = await liveCode(ctx.store, sha256(b.code), app.id, b.provider_app_id, now())
    if (!row || s256(b.code_verifier) !== row.code_challenge) throw errors.invalidCredentials('Invalid or expired cross-app code')
    const acct: AccountInput = {
      type: 'cross_app',
      identifier: `${b.provider_app_id}:${row.user_id}`,
      // The provider user's embedded Ethereum wallets and smart wallets, read at each login/link.
      data: { subject: row.user_id, provider_app_id: b.provider_app_id, ...(await providerWallets(ctx.store, b.provider_app_id, row.user_id)) },
      transferable: false,
      linkMethod: 'cross_app',
      displayName: row.user_id,
    }
    return { app, acct, codeHash: row.code_hash }
  }
  const consume = (codeHash: string) => (q: Queryable) => useCode(q, codeHash, now())

  const sig = { provider_app_id: id(64), code: id(256), code_verifier: z.string().min(43).max(128).regex(/^[A-Za-z0-9._~-]+$/) }

  r.post('/cross-app/authenticate', { summary: 'Cross-app: log in with a provider app’s one-time code', body: z.object({ ...sig, mode }), auth: 'optional' }, async (c, { body: b }) => {
      const { app, acct, codeHash } = await verify(c, b)
      const guest = await currentGuest(c, ctx)
      return c.json(await loginWithAccount(ctx, app, acct, { mode: b.mode ?? undefined, guestUserId: guest, verify: consume(codeHash) }))
    })

  r.post('/cross-app/link', { summary: 'Cross-app: link a provider app account', body: z.object(sig), auth: 'link' }, async (c, { body: b, auth }) => {
    const { app, acct, codeHash } = await verify(c, b)
    if (!(await consume(codeHash)(ctx.store))) throw errors.invalidCredentials('Invalid or expired cross-app code')
    return c.json(await linkAccount(ctx, app, auth.userId, acct))
  })

  r.post('/cross-app/unlink', { summary: 'Cross-app: unlink a provider app account', body: z.object({ provider_app_id: id(64), subject: id(256) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      return c.json(await unlinkAccount(ctx, c.get('app'), auth.userId, 'cross_app', `${b.provider_app_id}:${b.subject}`))
    })
  return r.app
}
