/**
 * Farcaster signers (spec part 2; issue 30): an Ed25519 key made in the wallet frame, approved
 * by the user in the Farcaster app, kept on the user's Farcaster account as signer_public_key.
 *
 * - POST /farcaster/signer/init {ed25519_public_key} → {public_key, status, signer_approval_url}:
 *   the app FID signs the request and the server files it with the Farcaster client API. The key
 *   belongs to the caller from then on; another user naming it is refused.
 * - POST /farcaster/signer/status {ed25519_public_key} → {public_key, status, signer_approval_url?}:
 *   status 'pending_approval' | 'approved' | 'revoked' | 'expired'. On approval (by the linked
 *   fid) the account gains signer_public_key, in the same transaction as the signer's state.
 *
 * Both need an access token, an embedded wallet and a linked Farcaster account.
 */
import { z } from 'zod'
import type { Hex } from 'viem'
import type { ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { now } from '../../core/identity/tokens'
import { router } from '../../core/router'
import { ED25519_KEY } from './eip712'
import { signerErrors } from './errors'
import { selectSigner, setAccountSigner, setSignerState, signerPrerequisites, upsertSigner, type SignerRow } from './repo'
import { createSignedKeyRequest, DEFAULT_FARCASTER_CLIENT_API, getSignedKeyRequest, signerConfig, signKeyRequest } from './service'

export interface FarcasterSignerOptions {
  /** Base URL of the Farcaster client API (default https://api.farcaster.xyz; a local stand-in in tests and the demo). */
  clientApiUrl?: string
}

const key = z.string().transform((s) => s.toLowerCase()).pipe(z.string().regex(ED25519_KEY, 'must be 0x and 64 hex digits (an Ed25519 public key)'))
const body = z.object({ ed25519_public_key: key })
/** init may name its own deadline (unix seconds, as a string or a number: the published client sends a string), at most 7 days ahead. */
const initBody = z.object({ ed25519_public_key: key, deadline: z.union([z.string().regex(/^\d{1,12}$/), z.number().int().positive()]).nullish() })
const MAX_DEADLINE_S = 7 * 86400

const wire = (s: SignerRow) => ({
  public_key: s.public_key,
  status: s.state === 'pending' ? ('pending_approval' as const) : s.state,
  ...(s.state === 'pending' ? { signer_approval_url: s.deeplink_url } : { fid: String(s.fid) }),
})

export function farcasterSignerRoutes(ctx: ServerCtx, o: FarcasterSignerOptions = {}) {
  const r = router(ctx)
  const base = o.clientApiUrl ?? DEFAULT_FARCASTER_CLIENT_API

  const prerequisites = async (userId: string) => {
    const p = await signerPrerequisites(ctx.store, userId)
    if (!p.embedded) throw signerErrors.needWallet()
    if (p.fid === undefined) throw signerErrors.needFarcaster()
    return p.fid
  }

  r.post('/farcaster/signer/init', { summary: 'Farcaster signer: ask the Farcaster app to approve an Ed25519 key', auth: 'bearer', body: initBody }, async (c, { body: b, auth }) => {
    const app = c.get('app')
    const fid = await prerequisites(auth.userId)
    const cfg = signerConfig(app)
    if (!cfg) throw signerErrors.notConfigured()
    const key = b.ed25519_public_key as Hex
    const existing = await selectSigner(ctx.store, app.id, key)
    if (existing && existing.user_id !== auth.userId) throw signerErrors.notYours()
    if (existing && (existing.state === 'approved' || (existing.state === 'pending' && existing.deadline > now()))) return c.json(wire(existing))
    const deadline = b.deadline != null ? Number(b.deadline) : now() + cfg.deadlineS
    if (deadline <= now() || deadline > now() + MAX_DEADLINE_S) throw errors.field('deadline', 'must be in the future and at most 7 days ahead (unix seconds)')
    const signature = await signKeyRequest(cfg, key, deadline)
    const skr = await createSignedKeyRequest(base, { key, requestFid: cfg.appFid, signature, deadline })
    const t = now()
    const row = { appId: app.id, publicKey: key, userId: auth.userId, fid, requestFid: cfg.appFid, token: skr.token, deeplinkUrl: skr.deeplinkUrl, deadline, t }
    // Another user's concurrent request for the same key loses here (the row is the caller's or nobody's).
    if (!(await upsertSigner(ctx.store, row))) {
      const now_ = await selectSigner(ctx.store, app.id, key)
      if (!now_ || now_.user_id !== auth.userId) throw signerErrors.notYours()
      return c.json(wire(now_))
    }
    return c.json(wire((await selectSigner(ctx.store, app.id, key))!))
  })

  r.post('/farcaster/signer/status', { summary: "Farcaster signer: the approval state of the caller's Ed25519 key", body, auth: 'bearer' }, async (c, { body: b, auth }) => {
    const app = c.get('app')
    const fid = await prerequisites(auth.userId)
    const key = b.ed25519_public_key
    const s = await selectSigner(ctx.store, app.id, key)
    if (!s) throw signerErrors.unknown()
    if (s.user_id !== auth.userId) throw signerErrors.notYours()
    if (s.state !== 'pending') return c.json(wire(s))
    if (s.deadline <= now()) {
      await setSignerState(ctx.store, app.id, key, 'expired', null, now())
      return c.json(wire({ ...s, state: 'expired' }))
    }
    const skr = await getSignedKeyRequest(base, s.token)
    if (skr.state === 'revoked' || skr.state === 'expired') {
      await setSignerState(ctx.store, app.id, key, skr.state, null, now())
      return c.json(wire({ ...s, state: skr.state }))
    }
    if (skr.state === 'approved' || skr.state === 'completed') {
      const userFid = Number(skr.userFid)
      if (userFid !== fid || s.fid !== fid) throw signerErrors.otherFid(userFid)
      const done = await ctx.store.transaction(async (q) => {
        const locked = await selectSigner(q, app.id, key, true)
        if (!locked || locked.state !== 'pending' || locked.token !== s.token) return locked
        if (!(await setAccountSigner(q, auth.userId, fid, key))) throw signerErrors.needFarcaster()
        await setSignerState(q, app.id, key, 'approved', userFid, now())
        return { ...locked, state: 'approved' as const, user_fid: userFid }
      })
      if (!done) throw signerErrors.unknown()
      return c.json(wire(done))
    }
    return c.json(wire(s))
  })
  return r.app
}
