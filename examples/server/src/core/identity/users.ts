/** Users: the wire user read back, new users and the app's user limits, guest logins. */
import type { WireLinkedAccount, WireUser } from '../../wire'
import type { AppSettings } from '../../config'
import { MSG, errors } from '../errors'
import { emitEvents, type EventInput } from '../events'
import type { Queryable } from '../store'
import * as repo from './repo'
import type { AccountRow, UserRowWithAccounts } from './repo'
import { createSessionLoadUser, retryUnique } from './sessions'
import { authResponse, now, randomToken, sha256, type Deps } from './tokens'
import type { WireAuthResponse } from '../../wire'

export const newUserId = () => `did:portico:${randomToken(15).replace(/[-_]/g, 'x').toLowerCase()}`

export async function loadUser(q: Queryable, userId: string): Promise<WireUser | null> {
  return userFromRow(await repo.selectUser(q, userId))
}

export function userFromRow(u: UserRowWithAccounts | undefined): WireUser | null {
  if (!u) return null
  const accounts = (typeof u.accounts === 'string' ? JSON.parse(u.accounts) : u.accounts ?? []) as AccountRow[]
  const user: WireUser = {
    id: u.id,
    created_at: Number(u.created_at),
    linked_accounts: accounts.map(accountToWire),
    // MFA methods (migration 023): type and verified_at in seconds.
    mfa_methods: ((typeof u.mfa === 'string' ? JSON.parse(u.mfa) : u.mfa ?? []) as { type: string; verified_at: number }[]).map((m) => ({
      type: m.type,
      verified_at: Number(m.verified_at),
    })) as WireUser['mfa_methods'],
    has_accepted_terms: u.has_accepted_terms,
    is_guest: u.is_guest,
  }
  if (u.custom_metadata) user.custom_metadata = u.custom_metadata
  return user
}

export function accountToWire(a: Pick<AccountRow, 'type' | 'data' | 'first_verified_at' | 'latest_verified_at'>): WireLinkedAccount {
  return {
    ...(a.type === 'farcaster' ? { signer_public_key: null } : {}),
    ...a.data,
    type: a.type,
    verified_at: Number(a.first_verified_at),
    first_verified_at: Number(a.first_verified_at),
    latest_verified_at: Number(a.latest_verified_at),
  } as WireLinkedAccount
}

/** A user of this app, for the app's backend (ids longer than 128 characters are nobody's). */
export async function loadUserOfApp(q: Queryable, userId: string, appId: string): Promise<WireUser | null> {
  const id = userId.length <= 128 ? await repo.userOfApp(q, userId, appId) : undefined
  return id ? loadUser(q, id) : null
}

/** Records the user's terms acceptance and reads the user back. */
export async function acceptTerms(q: Queryable, userId: string): Promise<WireUser | null> {
  await repo.acceptTerms(q, userId)
  return loadUser(q, userId)
}

/** User limit and development-mode cap, checked under a per-app lock (new users only). */
export async function enforceNewUserLimits(q: Queryable, app: AppSettings): Promise<void> {
  if (app.userLimit == null && !app.developmentMode) return
  const n = await repo.lockedUserCount(q, app.id)
  if (app.developmentMode && n >= (app.developmentUserCap ?? 150)) throw errors.devMode()
  if (app.userLimit != null && n >= app.userLimit) throw errors.maxAccounts()
}

/** Guest login: the same credential always gives the same user. */
export async function guestLogin(d: Deps, app: AppSettings, credential: string): Promise<WireAuthResponse> {
  const hash = sha256(`guest:${app.id}:${credential}`)
  const r = await retryUnique(() =>
    d.store.transaction(async (q) => {
      const row = await repo.userByGuestHash(q, hash)
      // Once the guest has linked an account, its credential no longer logs in (until that
      // account is unlinked again): the linked account does.
      if (row && !row.is_guest) throw errors.invalidCredentials(MSG.upgradedGuest)
      let userId = row?.id
      let isNew = false
      const events: EventInput[] = []
      if (!userId) {
        await enforceNewUserLimits(q, app)
        userId = newUserId()
        const t = now()
        await repo.insertUser(q, { id: userId, appId: app.id, createdAt: t, isGuest: true, guestHash: hash })
        isNew = true
        events.push({ type: 'user.created', data: { user_id: userId, created_at: t, is_guest: true, linked_accounts: [] } })
      }
      events.push({ type: 'user.authenticated', data: { user_id: userId, is_new_user: isNew, account: null } })
      const [{ user, session }] = await Promise.all([createSessionLoadUser(q, app.id, userId, 'guest'), emitEvents(q, app.id, events)])
      return { user, session, isNew }
    }),
  )
  return authResponse(d, app.id, r.user, r.session, r.isNew)
}
