/**
 * Passkeys (WebAuthn, spec part 1 section 7): /passkeys/{register,authenticate,link}/init,
 * /passkeys/{register,authenticate,link}, /passkeys/unlink. Options and verification are
 * @simplewebauthn/server's; this file keeps the relying party per app, the challenges
 * (single use, 5 minutes, bound to their purpose and for links to the user) and the
 * credentials (public key and sign counter, migration 011).
 *
 * Every check that can fail runs before the writing transaction, and the transaction
 * consumes the challenge with its writes: a refused request writes nothing.
 */
import { randomBytes } from 'node:crypto'
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON, VerifiedRegistrationResponse } from '@simplewebauthn/server'
import { z } from 'zod'
import { hitLimit } from '../../codes'
import { methodEnabled, type AppSettings } from '../../config'
import { clientIp, type C, type ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { insertAccount, loadUser, loginWithAccount, unlinkAccount, userResponse, type AccountInput } from '../../core/identity'
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { id, mode, optId } from '../../core/validate'
import { CHALLENGE_TTL_S, advanceCounter, authenticationOptions, authenticationResponse, challengeOf, loadCredential, registrationResponse, verifyAssertion, withSnakeNames } from './webauthn'
import { router } from '../../core/router'
import { currentGuest } from '../../core/auth'
import { MAX_PASSKEYS, authenticatorName, relyingParty, webauthnLib } from './webauthn'
import { browserAndOs } from '../../user-agent'
import { PASSKEY_MSG, cannotLinkMore, notAllowed } from './errors'
import { endGuest, lockUser } from '../../core/identity/repo'
import { insertChallenge, insertCredential, liveChallenge, passkeysOf, useChallenge } from './repo'

export { CHALLENGE_TTL_S }

const bad = (msg: string = PASSKEY_MSG.badResponse) => errors.invalidCredentials(msg)

type Purpose = 'passkey_register' | 'passkey_authenticate' | 'passkey_link'


const relying_party = optId(253)
const challenge = id(128)
/** A registration's: optional (the published client sends none; clientDataJSON's is then the candidate). */
const registrationChallenge = optId(128)

export function passkeysRoutes(ctx: ServerCtx) {
  const r = router(ctx)
  const enabled = (c: C) => {
    const app = c.get('app')
    if (!methodEnabled(app, 'passkey')) throw errors.disallowedMethod('passkey')
    return app
  }
  const signupAllowed = (app: AppSettings) => {
    if (!app.passkeysForSignupEnabled) throw notAllowed(PASSKEY_MSG.signupNotAllowed)
    // An allowlist names e-mails, phones and wallets: a passkey alone cannot be on it.
    if (app.allowlist) throw errors.allowlist()
  }

  /** Challenges per IP (as sign-in nonces). */
  const limit = async (c: C) => {
    if (!(await hitLimit(ctx.store, `passkey-ip:${clientIp(c, ctx.trustProxy)}`, ctx.limits.perIp * 4, ctx.limits.windowS))) {
      throw errors.tooMany()
    }
  }
  const store = async (appId: string, purpose: Purpose, challengeValue: string, subject: string, rpId: string) => {
    const t = now()
    await insertChallenge(ctx.store, { value: challengeValue, appId, purpose, subject }, rpId, t, t + CHALLENGE_TTL_S)
  }
  /** The live challenge (not used, not expired, this purpose, this subject) or 401. */
  const pending = async (appId: string, purpose: Purpose, value: string, subject: string, rpId: string) => {
    if (!(await liveChallenge(ctx.store, { value, appId, purpose, subject }, rpId, now()))) throw bad(PASSKEY_MSG.badChallenge)
  }
  /** Consumes the challenge inside the writing transaction (two racing requests: one wins). */
  const consume = async (q: Queryable, appId: string, purpose: Purpose, value: string, subject: string) => {
    if (!(await useChallenge(q, { value, appId, purpose, subject }, now()))) throw bad(PASSKEY_MSG.badChallenge)
  }

  const userPasskeys = (q: Queryable, userId: string) => passkeysOf(q, userId)
  /** The challenge a request answers: the one it names, else the one its clientDataJSON carries. */
  const challengeFor = (b: { challenge?: string | null; authenticator_response: { response: { clientDataJSON: string } } }): string => {
    const value = b.challenge ?? challengeOf(b.authenticator_response)
    if (!value) throw bad(PASSKEY_MSG.badChallenge)
    return value
  }

  const creationOptions = async (app: AppSettings, rpId: string, userId: Uint8Array, exclude: { identifier: string; transports: AuthenticatorTransport[] | null }[]) =>
    (await webauthnLib()).generateRegistrationOptions({
      rpName: app.name,
      rpID: rpId,
      userID: userId as Uint8Array<ArrayBuffer>,
      userName: `${app.name} user`,
      attestationType: 'none',
      timeout: CHALLENGE_TTL_S * 1000,
      excludeCredentials: exclude.map((e) => ({ id: e.identifier, transports: e.transports ?? undefined })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    })

  /** Verifies a registration against a live challenge; the account and credential to write. */
  const verifyRegistration = async (c: C, app: AppSettings, b: { challenge: string; authenticator_response: unknown }, rp: { rpId: string; origins: string[] }) => {
    const { verifyRegistrationResponse } = await webauthnLib()
    let info: VerifiedRegistrationResponse['registrationInfo']
    try {
      const v = await verifyRegistrationResponse({
        response: b.authenticator_response as RegistrationResponseJSON,
        expectedChallenge: b.challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.rpId,
        requireUserVerification: false,
      })
      if (!v.verified) throw new Error('not verified')
      info = v.registrationInfo
    } catch {
      throw bad()
    }
    if (!info) throw bad()
    const { browser, os } = browserAndOs(c.req.header('user-agent'))
    const cred = info.credential
    const account: AccountInput = {
      type: 'passkey',
      identifier: cred.id,
      data: {
        credential_id: cred.id,
        authenticator_name: authenticatorName(info.aaguid),
        created_with_browser: browser,
        created_with_os: os,
        created_with_device: null,
        enrolled_in_mfa: false,
      },
      transferable: false,
      linkMethod: 'passkey',
      displayName: cred.id,
    }
    const writeCredential = async (q: Queryable) => {
      const stored = await insertCredential(q, { appId: app.id, credentialId: cred.id, publicKey: Buffer.from(cred.publicKey).toString('base64url'), counter: cred.counter, transports: cred.transports ?? [], aaguid: info.aaguid, t: now() })
      if (!stored) throw errors.linkedToAnother()
    }
    return { account, writeCredential }
  }

  // ------------------------------------------------------------ register (sign up)

  r.post('/passkeys/register/init', { summary: 'Passkey sign-up: creation options and a challenge', body: z.object({ relying_party, token: optId(4096) }) }, async (c, { body: b }) => {
      const app = enabled(c)
      signupAllowed(app)
      if (app.captcha?.enabled && !b.token && !c.req.header('authorization')) throw errors.invalidCaptcha()
      const rp = relyingParty(app, b.relying_party)
      await limit(c)
      const options = await creationOptions(app, rp.rpId, randomBytes(32), [])
      await store(app.id, 'passkey_register', options.challenge, '', rp.rpId)
      return c.json({ relying_party: rp.rpId, options: withSnakeNames(options) })
    })

  r.post('/passkeys/register', { summary: 'Passkey sign-up: verify the new credential, create the user', body: z.object({ relying_party, challenge: registrationChallenge, authenticator_response: registrationResponse, mode }), auth: 'optional' }, async (c, { body: b }) => {
      const app = enabled(c)
      signupAllowed(app)
      const rp = relyingParty(app, b.relying_party)
      const ch = challengeFor(b)
      await pending(app.id, 'passkey_register', ch, '', rp.rpId)
      const { account, writeCredential } = await verifyRegistration(c, app, { ...b, challenge: ch }, rp)
      const guest = await currentGuest(c, ctx)
      const verify = async (q: Queryable) => {
        await consume(q, app.id, 'passkey_register', ch, '')
        await writeCredential(q)
        return true
      }
      return c.json(await loginWithAccount(ctx, app, account, { guestUserId: guest, verify }))
    })

  // ------------------------------------------------------------ authenticate (log in)

  r.post('/passkeys/authenticate/init', { summary: 'Passkey login: request options and a challenge', body: z.object({ relying_party, token: optId(4096) }) }, async (c, { body: b }) => {
      const app = enabled(c)
      if (app.captcha?.enabled && !b.token && !c.req.header('authorization')) throw errors.invalidCaptcha()
      const rp = relyingParty(app, b.relying_party)
      await limit(c)
      const options = await authenticationOptions(rp.rpId)
      await store(app.id, 'passkey_authenticate', options.challenge, '', rp.rpId)
      return c.json({ relying_party: rp.rpId, options: withSnakeNames(options) })
    })

  r.post('/passkeys/authenticate', { summary: 'Passkey login: verify the assertion (signature, origin, challenge, sign counter)', body: z.object({ relying_party, challenge, authenticator_response: authenticationResponse, mode }), auth: 'optional' }, async (c, { body: b }) => {
      const app = enabled(c)
      const rp = relyingParty(app, b.relying_party)
      await pending(app.id, 'passkey_authenticate', b.challenge, '', rp.rpId)
      const resp = b.authenticator_response as unknown as AuthenticationResponseJSON
      const cred = await loadCredential(ctx.store, app.id, resp.id)
      if (!cred) throw bad(PASSKEY_MSG.unknownPasskey)
      const newCounter = await verifyAssertion(resp, b.challenge, rp, cred)
      if (newCounter === null) throw bad()
      const guest = await currentGuest(c, ctx)
      const verify = async (q: Queryable) => {
        await consume(q, app.id, 'passkey_authenticate', b.challenge, '')
        if (!(await advanceCounter(q, app.id, resp.id, newCounter))) throw bad()
        return true
      }
      const account: AccountInput = { type: 'passkey', identifier: resp.id, data: {}, transferable: false, linkMethod: 'passkey', displayName: resp.id }
      return c.json(await loginWithAccount(ctx, app, account, { mode: 'no-signup', guestUserId: guest, verify }))
    })

  // ------------------------------------------------------------ link, unlink

  r.post('/passkeys/link/init', { summary: 'Link a passkey: creation options (excluding the user’s passkeys) and a challenge', body: z.object({ relying_party }), auth: 'link' }, async (c, { body: b, auth }) => {
      const app = enabled(c)
      const rp = relyingParty(app, b.relying_party)
      const mine = await userPasskeys(ctx.store, auth.userId)
      if (mine.length >= MAX_PASSKEYS) throw cannotLinkMore()
      await limit(c)
      const options = await creationOptions(app, rp.rpId, new TextEncoder().encode(auth.userId), mine)
      await store(app.id, 'passkey_link', options.challenge, auth.userId, rp.rpId)
      return c.json({ relying_party: rp.rpId, options: withSnakeNames(options) })
    })

  r.post('/passkeys/link', { summary: 'Link a passkey: verify the new credential, add it to the user', body: z.object({ relying_party, challenge: registrationChallenge, authenticator_response: registrationResponse }), auth: 'link' }, async (c, { body: b, auth }) => {
      const app = enabled(c)
      const rp = relyingParty(app, b.relying_party)
      const ch = challengeFor(b)
      await pending(app.id, 'passkey_link', ch, auth.userId, rp.rpId)
      const { account, writeCredential } = await verifyRegistration(c, app, { ...b, challenge: ch }, rp)
      const user = await ctx.store.transaction(async (q) => {
        // The user row lock serialises links of one user (the limit holds under concurrency).
        await lockUser(q, auth.userId)
        await consume(q, app.id, 'passkey_link', ch, auth.userId)
        if ((await userPasskeys(q, auth.userId)).length >= MAX_PASSKEYS) throw cannotLinkMore()
        await writeCredential(q)
        await insertAccount(q, app, auth.userId, account)
        await endGuest(q, auth.userId)
        return (await loadUser(q, auth.userId))!
      })
      return c.json(await userResponse(ctx, app.id, user))
    })

  r.post('/passkeys/unlink', { summary: 'Unlink a passkey (not while it is enrolled in MFA)', body: z.object({ credential_id: id(1366) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      return c.json(
        await unlinkAccount(ctx, c.get('app'), auth.userId, 'passkey', b.credential_id, (data) =>
          data.enrolled_in_mfa === true ? errors.invalidData(PASSKEY_MSG.enrolledInMfa) : undefined,
        ),
      )
    })
  return r.app
}
