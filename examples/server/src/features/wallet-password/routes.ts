/**
 * The server's half of password recovery (issue 26, 'Password recovery not guessable offline'):
 *
 *   POST /wallets/recovery/password/evaluate {entropy_id, blinded}  → {evaluated, nonce, suite}
 *   POST /wallets/recovery/password/verified {entropy_id, owner_signature} → {ok}
 *
 * `evaluate` runs the OPRF (RFC 9497, ristretto255-SHA512, @noble/curves) on the frame's blinded
 * element under the wallet's own key: derived once from the RECOVERY key (HKDF with the app and
 * the entropy id; never PORTICO_SECRET), kept sealed with it (a JWE naming the key id, re-wrapped
 * by rotate-keys). Every evaluation is counted per wallet; after PASSWORD_MAX_EVALUATIONS
 * without a reported success the wallet's password is locked for PASSWORD_LOCK_S. `verified`
 * reports a success: a signature by the root's index-0 key (EIP-191 for Ethereum roots, ed25519
 * for Solana roots) over ownerMessage({action: 'password_recovered', nonce}) with the nonce of
 * the last evaluation (kept with the row: a nonce is no credential without the signature); it
 * resets the counter. The server never sees the password, the blind,
 * the output or the share.
 */
import { ed25519, ristretto255, ristretto255_oprf } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { z } from 'zod'
import type { Auth } from '../../core/auth'
import type { C, ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import type { Keys } from '../../keys'
import { now, randomToken } from '../../core/identity/tokens'
import { id } from '../../core/validate'
import { ownerMessage } from '../../wire/custody'
import { OPRF_SUITE, PASSWORD_LOCK_S, PASSWORD_MAX_EVALUATIONS, PASSWORD_NONCE_TTL_S, PASSWORD_TEXTS } from '../../wire/password'
import { router } from '../../core/router'
import { OPRF_KEY_PURPOSE, deriveOprfKey, verifyOwnerSignature } from './service'
import { lockedError } from './errors'
import { notFound } from '../wallets/errors'
import { custodyErrors } from '../wallets/device'
import { lockOprfRow, oprfRowOf, recordEvaluation, recordSuccess, rootOf } from './repo'


export interface WalletPasswordOptions {
  /** The recovery key's keys (never the server secret's). */
  recoveryKeys: Keys
  /** The wallet routes' guard: a token and a proof by the session's device for this root. */
  guard: (c: C, entropyId?: string | null, o?: { binding?: 'bound' | 'any' }) => Promise<Auth>
}

const entropyId = id(64)
const evaluateBody = z.object({ entropy_id: entropyId, blinded: z.string().min(1, 'Required').max(256).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Expected base64') })
const verifiedBody = z.object({ entropy_id: entropyId, owner_signature: z.string().min(1, 'Required').max(512) })


export function walletPasswordRoutes(ctx: ServerCtx, opts: WalletPasswordOptions) {
  const r = router(ctx)

  /** The root's verifier when it exists; 404 when it belongs to another user. */
  const rootOwner = (appId: string, entropy: string) => rootOf(ctx.store, appId, entropy)

  /** A wallet frame's device, for a new device too: the password is its factor (the OPRF counts the guesses). */
  const frameDevice = (c: C, b: { entropy_id: string }) => opts.guard(c, b.entropy_id, { binding: 'any' })

  r.post('/wallets/recovery/password/evaluate', { summary: "Password recovery: the server's OPRF evaluation of the frame's blinded password (counted, locked out after 10) — wallet frame only", body: evaluateBody, guard: frameDevice }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      const entropy = b.entropy_id.toLowerCase()
      const root = await rootOwner(app.id, entropy)
      if (root && root.user_id !== auth.userId) throw notFound()
      // A group element (not the identity) or 422, before anything is counted or written.
      let blinded: Uint8Array
      try {
        blinded = base64.decode(b.blinded)
        if (ristretto255.Point.fromBytes(blinded).equals(ristretto255.Point.ZERO)) throw new Error('identity')
      } catch {
        throw errors.invalidData(PASSWORD_TEXTS.badElement, { fields: { blinded: PASSWORD_TEXTS.badElement } }, 422)
      }
      const t = now()
      const nonce = randomToken(18)
      const out = await ctx.store.transaction(async (q) => {
        const sealedKey = await opts.recoveryKeys.seal(base64.encode(deriveOprfKey(opts.recoveryKeys, app.id, entropy)), OPRF_KEY_PURPOSE)
        const row = await lockOprfRow(q, app.id, entropy, auth.userId, sealedKey, t)
        // Before the root exists (a create seals first) the first asker owns the row.
        if (row.user_id !== auth.userId) throw notFound()
        const locked = row.locked_until == null ? 0 : Number(row.locked_until)
        if (locked > t) return { locked: locked - t }
        // A lock that ran out starts a new window.
        const evaluations = (locked ? 0 : row.evaluations) + 1
        const lockNow = evaluations >= PASSWORD_MAX_EVALUATIONS
        await recordEvaluation(q, app.id, entropy, { evaluations: lockNow ? 0 : evaluations, lockedUntil: lockNow ? t + PASSWORD_LOCK_S : null, nonce, nonceExpiresAt: t + PASSWORD_NONCE_TTL_S, t })
        return { key: row.oprf_key }
      })
      if ('locked' in out) {
        c.header('retry-after', String(out.locked))
        throw lockedError(out.locked!)
      }
      const secretKey = base64.decode(await opts.recoveryKeys.open(out.key!, OPRF_KEY_PURPOSE))
      let evaluated: Uint8Array
      try {
        evaluated = ristretto255_oprf.oprf.blindEvaluate(secretKey, blinded)
      } catch {
        throw errors.invalidData(PASSWORD_TEXTS.badElement, { fields: { blinded: PASSWORD_TEXTS.badElement } }, 422)
      } finally {
        secretKey.fill(0)
      }
      c.header('cache-control', 'no-store')
      return c.json({ evaluated: base64.encode(evaluated), nonce, suite: OPRF_SUITE })
    })

  r.post('/wallets/recovery/password/verified', { summary: "Password recovery: report a success (signed by the wallet's index-0 key) — resets the guess counter", body: verifiedBody, guard: frameDevice }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      const entropy = b.entropy_id.toLowerCase()
      const row = await oprfRowOf(ctx.store, app.id, entropy, auth.userId)
      if (!row) throw notFound()
      const t = now()
      if (!row.success_nonce || Number(row.success_nonce_expires_at) <= t) throw errors.invalidData(PASSWORD_TEXTS.noEvaluation)
      const root = await rootOwner(app.id, entropy)
      if (root && root.user_id !== auth.userId) throw notFound()
      // Root ids keep their case in the signature check (Solana: base58); the message lowercases them.
      const rootId = root?.entropy_id ?? b.entropy_id
      const message = ownerMessage({ action: 'password_recovered', appId: app.id, entropyId: rootId, nonce: row.success_nonce })
      if (!(await verifyOwnerSignature(rootId, root?.entropy_id_verifier ?? null, message, b.owner_signature))) {
        throw custodyErrors.ownerSignature()
      }
      if (!(await recordSuccess(ctx.store, app.id, entropy, row.success_nonce, t))) throw errors.invalidData(PASSWORD_TEXTS.noEvaluation)
      return c.json({ ok: true })
    })
  return r.app
}
