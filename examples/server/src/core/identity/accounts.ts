/**
 * The account rules shared by every login kind: find-or-create on login, link with the
 * one-per-type and transfer rules, update, unlink, transfer. Features verify their credential
 * (code, signature, JWT) and then call these with an AccountInput.
 */
import type { WireAccountTransferData, WireAuthResponse, WireUser } from '../../wire'
import type { AppSettings } from '../../config'
import { ApiError, MSG, errors } from '../errors'
import { emitEvent, emitEvents, eventAccount } from '../events'
import type { Queryable } from '../store'
import * as repo from './repo'
import { newSessionTokens, createSessionLoadUser, retryUnique } from './sessions'
import { REFRESH_TTL_S, authResponse, now, randomToken, sha256, userResponse, type Deps } from './tokens'
import { accountToWire, enforceNewUserLimits, loadUser, newUserId } from './users'

/** A verified identifier about to be logged in with or linked. */
export interface AccountInput {
  /** Wire type: 'email' | 'phone' | 'wallet' | 'custom_auth' | ... */
  type: string
  /** Normalised unique key within (app, type), e.g. lower-case e-mail, E.164, 'ethereum:0xabc'. */
  identifier: string
  /** Wire fields of the account besides type and timestamps. */
  data: Record<string, unknown>
  /** Whether a conflict offers an account transfer (e-mail, SMS, Solana wallet ...). */
  transferable: boolean
  /** link_method of the transfer data: 'email' | 'sms' | 'siws' ... */
  linkMethod: string
  displayName: string
  /** Extra fields of the transfer data on a link conflict (OAuth: `oauth_user_info`). */
  transferInfo?: Record<string, unknown>
}

/** Adds a verified account to a user (passkeys' own link path); `user.linked_account` goes with it. */
export async function insertAccount(q: Queryable, app: AppSettings, userId: string, a: AccountInput) {
  await Promise.all([
    repo.insertAccount(q, app.id, userId, a, now()),
    emitEvent(q, app.id, 'user.linked_account', { user_id: userId, account: eventAccount(a.type, a.data) }),
  ])
}

/**
 * Log in with a verified identifier: existing account → its user; otherwise sign up
 * (unless mode is 'no-signup'), onto the current guest user when `guestUserId` is given.
 */
export async function loginWithAccount(
  d: Deps,
  app: AppSettings,
  acct: AccountInput,
  opts: {
    mode?: string
    guestUserId?: string | null
    /** Runs first in the same transaction (the code check); false commits its writes and answers 401. */
    verify?: (q: Queryable) => Promise<boolean>
  } = {},
): Promise<WireAuthResponse> {
  const r = await retryUnique(() =>
    d.store.transaction(async (q) => {
      if (opts.verify && !(await opts.verify(q))) return null
      // A returning account is found, locked and refreshed in one statement.
      const existing = await repo.touchAccount(q, app.id, acct, now())
      let userId: string
      let isNew = false
      if (existing) {
        userId = existing
      } else {
        if (opts.mode === 'no-signup') throw errors.userDoesNotExist()
        const guest = opts.guestUserId ? await repo.lockGuestUser(q, opts.guestUserId) : undefined
        if (guest) {
          userId = guest.id
          if (await repo.hasLinkedOfType(q, userId, acct.type)) throw errors.cannotLinkMore(acct.type)
          await repo.setGuest(q, userId, false)
          await insertAccount(q, app, userId, acct)
        } else {
          await enforceNewUserLimits(q, app)
          userId = newUserId()
          isNew = true
          const t = now()
          const { sessionId, refreshToken, familyId } = newSessionTokens()
          const account = eventAccount(acct.type, acct.data)
          // The events travel beside the insert (no round trip of their own).
          await Promise.all([
            repo.insertUserWithSession(q, {
              userId,
              appId: app.id,
              t,
              account: acct,
              sessionId,
              familyId,
              refreshHash: sha256(refreshToken),
              expiresAt: t + REFRESH_TTL_S,
            }),
            emitEvents(q, app.id, [
              { type: 'user.created', data: { user_id: userId, created_at: t, is_guest: false, linked_accounts: [account] } },
              { type: 'user.authenticated', data: { user_id: userId, is_new_user: true, account } },
            ]),
          ])
          // Known without reading it back.
          const user: WireUser = {
            id: userId,
            created_at: t,
            linked_accounts: [accountToWire({ type: acct.type, data: acct.data, first_verified_at: t, latest_verified_at: t })],
            mfa_methods: [],
            has_accepted_terms: false,
            is_guest: false,
          }
          return { user, session: { sessionId, refreshToken }, isNew }
        }
      }
      const [{ user, session }] = await Promise.all([
        createSessionLoadUser(q, app.id, userId, acct.type),
        emitEvent(q, app.id, 'user.authenticated', { user_id: userId, is_new_user: false, account: eventAccount(acct.type, acct.data) }),
      ])
      return { user, session, isNew }
    }),
  )
  if (!r) throw errors.invalidCredentials(MSG.invalidCode)
  return authResponse(d, app.id, r.user, r.session, r.isNew)
}

/** Link a verified identifier to the current user. */
export async function linkAccount(d: Deps, app: AppSettings, userId: string, acct: AccountInput): Promise<WireAuthResponse> {
  const r = await retryUnique(() =>
    d.store.transaction(async (q) => {
      const existing = await repo.findAccount(q, app.id, acct.type, acct.identifier)
      if (existing && existing.user_id === userId) {
        await repo.refreshAccount(q, existing.id, acct.data, now())
        return { user: (await loadUser(q, userId))! }
      }
      if (await repo.hasLinkedOfType(q, userId, acct.type)) throw errors.cannotLinkMore(acct.type)
      if (existing) {
        if (!acct.transferable) throw errors.linkedToAnother()
        // Committed before answering: the nonce authorises /transfer for 10 minutes.
        const nonce = randomToken(24)
        await repo.insertTransferNonce(q, {
          nonce,
          appId: app.id,
          subject: `${acct.type}:${acct.identifier}`,
          data: { target_user_id: userId, from_user_id: existing.user_id, data: acct.data },
          t: now(),
          ttlS: 600,
        })
        const transfer: WireAccountTransferData = {
          nonce,
          account: acct.displayName,
          account_type: acct.type,
          display_name: acct.displayName,
          link_method: acct.linkMethod,
          embedded_wallet_address: null,
          ...acct.transferInfo,
        }
        return { transfer }
      }
      await insertAccount(q, app, userId, acct)
      await repo.setGuest(q, userId, false)
      return { user: (await loadUser(q, userId))! }
    }),
  )
  if (r.transfer) throw errors.transferRequired(r.transfer)
  if (!r.user) throw new Error('unreachable')
  return userResponse(d, app.id, r.user)
}

/**
 * Move an identifier from another user to the current one with a transfer nonce; the other
 * user is deleted with all its accounts and sessions. One transaction.
 */
export async function transferAccount(
  d: Deps,
  app: AppSettings,
  userId: string,
  nonce: string,
  type: string,
  identifier: string,
): Promise<WireAuthResponse> {
  const user = await d.store.transaction(async (q) => {
    const n = await repo.useTransferNonce(q, nonce, app.id, now())
    if (!n || n.data.target_user_id !== userId || n.subject !== `${type}:${identifier}`) {
      throw errors.invalidCredentials('Invalid or expired transfer nonce')
    }
    const acc = await repo.findAccount(q, app.id, type, identifier)
    if (!acc) throw errors.invalidData('The account to transfer no longer exists.')
    if (acc.user_id !== userId) {
      if (await repo.hasLinkedOfType(q, userId, type)) throw errors.cannotLinkMore(type)
      await repo.moveAccount(q, acc.id, userId, now())
      await Promise.all([
        repo.deleteUser(q, acc.user_id),
        emitEvents(q, app.id, [
          { type: 'user.transferred_account', data: { user_id: userId, from_user_id: acc.user_id, account: eventAccount(acc.type, acc.data), deleted_user: true } },
          { type: 'user.deleted', data: { user_id: acc.user_id, reason: 'account_transferred' } },
        ]),
      ])
      await repo.setGuest(q, userId, false)
    }
    return (await loadUser(q, userId))!
  })
  return userResponse(d, app.id, user)
}

/** Replace the user's e-mail or phone (already verified new value). */
export async function updateAccount(
  d: Deps,
  app: AppSettings,
  userId: string,
  type: 'email' | 'phone',
  oldIdentifier: string,
  acct: AccountInput,
): Promise<WireAuthResponse> {
  const user = await d.store.transaction(async (q) => {
    const mine = await repo.lockAccountOfType(q, userId, type)
    if (!mine) throw errors.invalidData(type === 'email' ? MSG.needEmail : MSG.needPhone)
    if (mine.identifier !== oldIdentifier) {
      throw errors.invalidData(type === 'email' ? 'oldAddress does not match the linked email address.' : 'old_phone_number does not match the linked phone number.')
    }
    if (acct.identifier !== oldIdentifier) {
      if (await repo.findAccount(q, app.id, type, acct.identifier)) throw errors.linkedToAnother()
      await Promise.all([
        repo.replaceAccount(q, mine.id, acct, now()),
        emitEvent(q, app.id, 'user.updated_account', { user_id: userId, account: eventAccount(acct.type, acct.data), previous_account: eventAccount(mine.type, mine.data) }),
      ])
    }
    return (await loadUser(q, userId))!
  })
  return userResponse(d, app.id, user)
}

/** Pre-check for update: the user must already have an account of this type. */
export async function requireAccountOfType(d: Deps, userId: string, type: 'email' | 'phone'): Promise<void> {
  if (!(await repo.hasAccountOfType(d.store, userId, type))) throw errors.invalidData(type === 'email' ? MSG.needEmail : MSG.needPhone)
}

/** Unlink one of the user's accounts; the last one stays unless the user began as a guest. */
export async function unlinkAccount(
  d: Deps,
  app: AppSettings,
  userId: string,
  type: string,
  identifier: string,
  /** An error when this account may not be unlinked (e.g. a passkey enrolled in MFA). */
  refuse?: (data: Record<string, unknown>) => ApiError | undefined,
): Promise<WireAuthResponse> {
  const user = await d.store.transaction(async (q) => {
    const acc = await repo.findAccount(q, app.id, type, identifier)
    if (!acc || acc.user_id !== userId) throw errors.invalidData(`No linked ${type} account ${identifier} on this user.`)
    const refused = refuse?.(acc.data)
    if (refused) throw refused
    const { n, guest } = await repo.accountCountAndGuest(q, userId)
    // A user keeps a way to log in: the last account stays, except on a user that began as a
    // guest, which becomes a guest again (its guest credential logs in again).
    if (n <= 1 && !guest) throw errors.invalidData(MSG.lastAccount)
    await Promise.all([repo.deleteAccount(q, acc.id), emitEvent(q, app.id, 'user.unlinked_account', { user_id: userId, account: eventAccount(acc.type, acc.data) })])
    if (n <= 1) await repo.setGuest(q, userId, true)
    return (await loadUser(q, userId))!
  })
  return userResponse(d, app.id, user)
}
