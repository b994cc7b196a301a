/** The admin API's work: apps, keys, operators, users (search, view, revoke, delete, export, import). */
import { emitUserDeleted } from '../../core/events'
import { smartWalletProblems } from '../smart-wallets/config'
import { randomBytes } from 'node:crypto'
import { getAddress } from 'viem'
import { z } from 'zod'
import type { AppSettings } from '../../config'
import type { ServerCtx } from '../../core/context'
import { ApiError } from '../../core/errors'
import { accountToWire, loadUser } from '../../core/identity'
import { now } from '../../core/identity/tokens'
import { newUserId } from '../../core/identity/users'
import { canDeliver } from '../../delivery'
import { normaliseEmail } from '../passwordless/email'
import { normalisePhone } from '../passwordless/sms'
import { CONSOLE_APP_ID, mergePatch, parseApp, redact, sha256hex, stable, type LiveApps } from './apps'
import { newApiKey, type Admin, type KeyScope, type Role } from './auth'
import { ADMIN_MSG, adminErrors } from './errors'
import * as repo from './repo'
import { insertPregenerated, pregeneratedAccounts, pregeneratedWalletSchema, sealIncoming, walletIdentifier, type PregeneratedWallet } from '../wallets/pregen'

// ---------------------------------------------------------------- apps

export function appView(r: repo.AppRow) {
  const s = r.settings as { appSecretHash?: unknown; appSecretEnv?: unknown }
  return {
    id: r.id,
    settings: redact(r.settings),
    source: r.source,
    has_app_secret: typeof s.appSecretHash === 'string' || typeof s.appSecretEnv === 'string',
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  }
}

export function appsService(ctx: ServerCtx, live: LiveApps | null) {
  const mustBeLive = () => {
    if (!live) throw adminErrors.conflict('This server takes its apps from its options, not the database: app changes are off.')
    return live
  }
  /** The checks of the server's start-up, for one app: the schema, and methods it can deliver. */
  const validated = (input: unknown): AppSettings => {
    const r = parseApp(input)
    if ('problems' in r) throw adminErrors.invalid(r.problems)
    for (const m of ['email', 'sms'] as const) {
      if (r.app.loginMethods.includes(m) && !canDeliver(ctx.delivery, m)) throw adminErrors.invalid({ loginMethods: ADMIN_MSG.undeliverable(m) })
    }
    // The smart-wallet checks of start-up too (the spec's chain ids; the local chain in development mode only).
    const sw = smartWalletProblems(r.app, ctx.dev)
    if (sw.length) throw adminErrors.invalid({ smartWallets: sw.join('; ') })
    return r.app
  }
  const noSecrets = (body: Record<string, unknown>) => {
    for (const k of ['appSecret', 'appSecretHash']) if (k in body) throw adminErrors.invalid({ [k]: ADMIN_MSG.secretField })
  }
  /** One change of app settings: the row, its audit and the version, in one transaction; then this process reloads. */
  const change = async <T>(fn: (q: Parameters<Parameters<typeof ctx.store.transaction>[0]>[0], t: number) => Promise<T>): Promise<T> => {
    const l = mustBeLive()
    const out = await ctx.store.transaction(async (q) => {
      await repo.lockAppsVersion(q)
      const r = await fn(q, now())
      await repo.bumpAppsVersion(q)
      return r
    })
    await l.reload()
    return out
  }

  return {
    async list() {
      return (await repo.allApps(ctx.store)).map(appView)
    },
    async get(id: string) {
      const r = await repo.appRow(ctx.store, id)
      if (!r) throw adminErrors.notFound(ADMIN_MSG.appNotFound)
      return appView(r)
    },
    async create(admin: Admin, body: Record<string, unknown>) {
      noSecrets(body)
      const app = validated(body)
      return change(async (q, t) => {
        if (!(await repo.insertApp(q, app.id, app, 'admin', t))) throw adminErrors.conflict(ADMIN_MSG.appExists)
        await repo.insertAudit(q, { actor: admin.actor, action: 'app.created', appId: app.id, after: redact(app), t })
        return appView((await repo.appRow(q, app.id))!)
      })
    },
    async update(admin: Admin, id: string, patch: Record<string, unknown>) {
      noSecrets(patch)
      if ('id' in patch && patch.id !== id) throw adminErrors.invalid({ id: 'An app’s id cannot change' })
      return change(async (q, t) => {
        const row = await repo.appRow(q, id, true)
        if (!row) throw adminErrors.notFound(ADMIN_MSG.appNotFound)
        const next = validated(mergePatch(row.settings, patch))
        const keep = row.settings as { appSecretHash?: unknown }
        const stored = { ...next, ...(typeof keep.appSecretHash === 'string' ? { appSecretHash: keep.appSecretHash } : {}) }
        await repo.updateApp(q, id, stored, 'admin', t)
        await repo.insertAudit(q, { actor: admin.actor, action: 'app.updated', appId: id, before: redact(row.settings), after: redact(stored), t })
        return appView((await repo.appRow(q, id))!)
      })
    },
    async remove(admin: Admin, id: string) {
      if (id === CONSOLE_APP_ID) throw adminErrors.conflict(ADMIN_MSG.consoleApp)
      await change(async (q, t) => {
        const row = await repo.appRow(q, id, true)
        if (!row || !(await repo.deleteApp(q, id, t))) throw adminErrors.notFound(ADMIN_MSG.appNotFound)
        await repo.insertAudit(q, { actor: admin.actor, action: 'app.deleted', appId: id, before: redact(row.settings), t })
      })
    },
    /** A new app secret: answered once, only its SHA-256 stored; the old one stops working at once. */
    async rotateSecret(admin: Admin, id: string) {
      const secret = randomBytes(32).toString('base64url')
      await change(async (q, t) => {
        const row = await repo.appRow(q, id, true)
        if (!row) throw adminErrors.notFound(ADMIN_MSG.appNotFound)
        const settings = { ...row.settings, appSecretHash: sha256hex(secret) } as Record<string, unknown>
        delete settings.appSecretEnv
        delete settings.appSecret
        await repo.updateApp(q, id, settings, 'admin', t)
        await repo.insertAudit(q, { actor: admin.actor, action: 'app.secret_rotated', appId: id, t })
      })
      return { app_id: id, app_secret: secret }
    },
    async audit(appId: string | null, limit: number) {
      return (await repo.listAudit(ctx.store, appId, limit)).map((a) => ({ ...a, id: Number(a.id), created_at: Number(a.created_at) }))
    },
  }
}

// ---------------------------------------------------------------- API keys and operators

const keyView = (k: repo.KeyRow) => ({
  id: k.id,
  name: k.name,
  scopes: k.scopes,
  created_by: k.created_by,
  created_at: Number(k.created_at),
  last_used_at: k.last_used_at == null ? null : Number(k.last_used_at),
  revoked_at: k.revoked_at == null ? null : Number(k.revoked_at),
})

export function keysService(ctx: ServerCtx) {
  return {
    async create(admin: Admin, name: string, scopes: KeyScope[]) {
      // A key never holds more than its creator.
      const beyond = scopes.filter((s) => !admin.scopes.includes(s))
      if (beyond.length) throw adminErrors.forbidden(ADMIN_MSG.scope(beyond[0]), { required_scope: beyond[0] })
      const k = newApiKey()
      const t = now()
      await ctx.store.transaction(async (q) => {
        await repo.insertKey(q, { id: k.id, name, hash: k.hash, scopes: [...new Set(scopes)], by: admin.actor, t })
        await repo.insertAudit(q, { actor: admin.actor, action: 'key.created', appId: null, target: k.id, after: { name, scopes }, t })
      })
      return { id: k.id, name, scopes: [...new Set(scopes)], key: k.key, created_at: t }
    },
    async list() {
      return (await repo.listKeys(ctx.store)).map(keyView)
    },
    async revoke(admin: Admin, id: string) {
      await ctx.store.transaction(async (q) => {
        const t = now()
        if (!(await repo.revokeKey(q, id, t))) throw adminErrors.notFound(ADMIN_MSG.keyNotFound)
        await repo.insertAudit(q, { actor: admin.actor, action: 'key.revoked', appId: null, target: id, t })
      })
    },
  }
}

export function operatorsService(ctx: ServerCtx) {
  const view = (o: repo.OperatorRow) => ({ email: o.email, role: o.role, added_by: o.added_by, created_at: Number(o.created_at) })
  return {
    async list() {
      return (await repo.listOperators(ctx.store)).map(view)
    },
    /** Adds an operator or changes their role. */
    async put(admin: Admin, email: string, role: Role) {
      await ctx.store.transaction(async (q) => {
        const t = now()
        const before = await repo.operatorByEmail(q, email)
        if (before?.role === 'owner' && role !== 'owner' && (await repo.ownerCount(q)) <= 1) throw adminErrors.conflict(ADMIN_MSG.lastOwner)
        await repo.upsertOperator(q, { email, role, by: admin.actor, t })
        await repo.insertAudit(q, { actor: admin.actor, action: before ? 'operator.updated' : 'operator.added', appId: null, target: email, before: before ? { role: before.role } : undefined, after: { role }, t })
      })
      return { email, role }
    },
    async remove(admin: Admin, email: string) {
      await ctx.store.transaction(async (q) => {
        const before = await repo.operatorByEmail(q, email)
        if (!before) throw adminErrors.notFound(ADMIN_MSG.operatorNotFound)
        if (before.role === 'owner' && (await repo.ownerCount(q)) <= 1) throw adminErrors.conflict(ADMIN_MSG.lastOwner)
        await repo.deleteOperator(q, email)
        await repo.insertAudit(q, { actor: admin.actor, action: 'operator.removed', appId: null, target: email, before: { role: before.role }, t: now() })
      })
    },
  }
}

// ---------------------------------------------------------------- users

/** The identifiers a search term may be: an e-mail, a phone number, a wallet address, a linked account's subject. */
export function searchIdentifiers(term: string): string[] {
  const t = term.trim()
  const out = new Set([t, t.toLowerCase()])
  try {
    out.add(normaliseEmail(t))
  } catch {}
  try {
    if (/^\+?[\d\s().-]{5,}$/.test(t)) out.add(normalisePhone(t))
  } catch {}
  if (/^0x[0-9a-fA-F]{40}$/.test(t)) out.add(`ethereum:${t.toLowerCase()}`)
  if (/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(t)) out.add(`solana:${t}`)
  return [...out]
}

export function usersService(ctx: ServerCtx) {
  const mustExist = async (q: Parameters<typeof repo.userInApp>[0], appId: string, userId: string) => {
    if (userId.length > 128 || !(await repo.userInApp(q, userId, appId, true))) throw adminErrors.notFound(ADMIN_MSG.userNotFound)
  }
  return {
    async search(appId: string, term: string | undefined, limit: number, cursor: string | undefined) {
      if (term && term.trim()) {
        const t = term.trim().slice(0, 512)
        const ids = await repo.findUsers(ctx.store, appId, t, searchIdentifiers(t), limit)
        return { users: (await Promise.all(ids.map((id) => loadUser(ctx.store, id)))).filter(Boolean), next_cursor: null }
      }
      let before: { t: number; id: string } | null = null
      if (cursor) {
        const m = /^(\d{1,15})\.(.{1,128})$/.exec(cursor)
        if (!m) throw adminErrors.invalid({ cursor: 'Invalid cursor' })
        before = { t: Number(m[1]), id: m[2] }
      }
      const rows = await repo.listUsers(ctx.store, appId, limit, before)
      const users = (await Promise.all(rows.map((r) => loadUser(ctx.store, r.id)))).filter(Boolean)
      const last = rows[rows.length - 1]
      return { users, next_cursor: rows.length === limit && last ? `${Number(last.created_at)}.${last.id}` : null }
    },
    async view(appId: string, userId: string) {
      if (userId.length > 128 || !(await repo.userInApp(ctx.store, userId, appId))) throw adminErrors.notFound(ADMIN_MSG.userNotFound)
      const [user, sessions, wallets, devices, delegations] = await Promise.all([
        loadUser(ctx.store, userId),
        repo.userSessions(ctx.store, userId),
        repo.userWalletRoots(ctx.store, userId),
        repo.userDevices(ctx.store, userId),
        repo.userDelegations(ctx.store, userId),
      ])
      const n = (v: number | null) => (v == null ? null : Number(v))
      return {
        user,
        wallets: (user?.linked_accounts ?? []).filter((a) => a.type === 'wallet'),
        embedded_wallet_roots: wallets.map((w) => ({ ...w, created_at: Number(w.created_at), updated_at: Number(w.updated_at) })),
        mfa_methods: user?.mfa_methods ?? [],
        sessions: sessions.map((s) => ({ ...s, created_at: Number(s.created_at), revoked_at: n(s.revoked_at), active: s.revoked_at == null })),
        devices: devices.map((d) => ({ ...d, created_at: Number(d.created_at), last_used_at: Number(d.last_used_at), revoked_at: n(d.revoked_at) })),
        delegations: delegations.map((d) => ({ ...d, created_at: Number(d.created_at), last_used_at: n(d.last_used_at), expires_at: n(d.expires_at) })),
      }
    },
    /** Ends every session of the user: their next request with an access token of one answers 401. */
    async revokeSessions(admin: Admin, appId: string, userId: string) {
      return ctx.store.transaction(async (q) => {
        await mustExist(q, appId, userId)
        const t = now()
        const revoked = await repo.revokeUserSessions(q, userId, t)
        await repo.insertAudit(q, { actor: admin.actor, action: 'user.sessions_revoked', appId, target: userId, after: { revoked }, t })
        return { revoked }
      })
    },
    /** Deletes the user and what hangs on them (repo.deleteUserCascade); the audit keeps the id only. */
    async remove(admin: Admin, appId: string, userId: string) {
      await ctx.store.transaction(async (q) => {
        await mustExist(q, appId, userId)
        await repo.deleteUserCascade(q, userId, appId)
        await emitUserDeleted(q, appId, userId, 'deleted_by_admin')
        await repo.insertAudit(q, { actor: admin.actor, action: 'user.deleted', appId, target: userId, t: now() })
      })
    },
    /** Every user of the app as JSON Lines or CSV, read a page at a time as the client takes it. */
    exportStream(appId: string, format: 'jsonl' | 'csv'): ReadableStream<Uint8Array> {
      const enc = new TextEncoder()
      let after = ''
      let header = format === 'csv'
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const rows = await repo.exportPage(ctx.store, appId, after, EXPORT_PAGE)
          let out = header ? `${CSV_COLUMNS.join(',')}\r\n` : ''
          header = false
          for (const r of rows) out += format === 'csv' ? csvLine(r) : `${JSON.stringify(exportRecord(r))}\n`
          if (out) controller.enqueue(enc.encode(out))
          if (rows.length < EXPORT_PAGE) controller.close()
          else after = rows[rows.length - 1].id
        },
      })
    },
  }
}

const EXPORT_PAGE = 500

function exportRecord(r: repo.ExportRow) {
  return {
    id: r.id,
    created_at: Number(r.created_at),
    is_guest: r.is_guest,
    has_accepted_terms: r.has_accepted_terms,
    linked_accounts: (r.accounts ?? []).map(accountToWire),
    mfa_methods: (r.mfa ?? []).map((m) => ({ type: m.type, verified_at: Number(m.verified_at) })),
    custom_metadata: r.custom_metadata ?? null,
  }
}

export const CSV_COLUMNS = ['id', 'created_at', 'is_guest', 'has_accepted_terms', 'emails', 'phones', 'wallets', 'mfa_methods', 'linked_accounts', 'custom_metadata']

/**
 * One CSV cell (RFC 4180 quoting); a cell a spreadsheet would read as a formula starts with an
 * apostrophe (a plain number such as an E.164 phone number stays as it is).
 */
export function csvCell(v: string): string {
  const s = /^[=+\-@\t\r]/.test(v) && !/^[+-]?\d+(\.\d+)?$/.test(v) ? `'${v}` : v
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

function csvLine(r: repo.ExportRow): string {
  const rec = exportRecord(r)
  const of = (type: string, f: string) =>
    rec.linked_accounts
      .filter((a) => a.type === type)
      .map((a) => String((a as unknown as Record<string, unknown>)[f] ?? ''))
      .join(' ')
  const cells = [
    rec.id,
    String(rec.created_at),
    String(rec.is_guest),
    String(rec.has_accepted_terms),
    of('email', 'address'),
    of('phone', 'number'),
    of('wallet', 'address'),
    rec.mfa_methods.map((m) => m.type).join(' '),
    JSON.stringify(rec.linked_accounts),
    rec.custom_metadata ? JSON.stringify(rec.custom_metadata) : '',
  ]
  return `${cells.map(csvCell).join(',')}\r\n`
}

// ---------------------------------------------------------------- user imports

/** Users a batch writes in one transaction (multi-row statements). */
export const IMPORT_BATCH = 500
/** Users one import may hold. */
export const IMPORT_MAX = 10_000

const importAccount = z.discriminatedUnion('type', [
  z.object({ type: z.literal('email'), address: z.string().max(320) }),
  z.object({ type: z.literal('phone'), number: z.string().max(64) }),
  z.object({ type: z.literal('wallet'), address: z.string().max(128), chain_type: z.enum(['ethereum', 'solana']).default('ethereum') }),
  z.object({ type: z.literal('custom_auth'), custom_user_id: z.string().min(1).max(256) }),
])
export const importUserSchema = z.object({
  linked_accounts: z.array(importAccount).min(1).max(20),
  created_at: z.number().int().positive().max(2 ** 40).optional(),
  custom_metadata: z.record(z.string(), z.unknown()).optional(),
  /** A pre-generated embedded wallet (scripts/pregen-wallet.ts), its auth share sealed on arrival. */
  embedded_wallet: pregeneratedWalletSchema.optional(),
})

interface NewAccount {
  type: string
  identifier: string
  data: Record<string, unknown>
}

/** The account as a login of that method would have written it (same identifier, same data). */
function toAccount(a: z.infer<typeof importAccount>): NewAccount {
  switch (a.type) {
    case 'email': {
      const address = normaliseEmail(a.address, 'address')
      return { type: 'email', identifier: address, data: { address } }
    }
    case 'phone': {
      const number = normalisePhone(a.number, 'number')
      return { type: 'phone', identifier: number, data: { number } }
    }
    case 'wallet': {
      let address = a.address
      if (a.chain_type === 'ethereum') {
        if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw adminErrors.invalid({ address: 'Invalid Ethereum address' })
        address = getAddress(address)
      } else if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) throw adminErrors.invalid({ address: 'Invalid Solana address' })
      const identifier = a.chain_type === 'ethereum' ? `ethereum:${address.toLowerCase()}` : `solana:${address}`
      const data = { address, chain_type: a.chain_type, chain_id: null, wallet_client_type: null, connector_type: null, imported: false, delegated: false, recovery_method: null, wallet_index: null }
      return { type: 'wallet', identifier, data }
    }
    case 'custom_auth':
      return { type: 'custom_auth', identifier: a.custom_user_id, data: { custom_user_id: a.custom_user_id } }
  }
}

export const importView = (j: repo.ImportRow) => ({
  id: j.id,
  idempotency_key: j.idempotency_key,
  status: j.status,
  total: j.total,
  processed: j.processed,
  created: j.created,
  existing: j.existing,
  failed: j.failed,
  errors: j.errors,
  created_at: Number(j.created_at),
  updated_at: Number(j.updated_at),
})

export function importsService(ctx: ServerCtx) {
  const running = new Set<string>()

  /** One batch in one transaction: validate, skip users whose accounts exist, write the rest in two statements. */
  async function batch(appId: string, users: unknown[], offset: number) {
    const t = now()
    const errors: { index: number; error: string }[] = []
    const parsed: { index: number; user: z.infer<typeof importUserSchema>; accounts: NewAccount[]; wallet?: { w: PregeneratedWallet; list: ReturnType<typeof pregeneratedAccounts> } }[] = []
    users.forEach((u, i) => {
      // A pre-generated wallet the server could not take on arrival (sealIncoming): its reasons.
      const bad = (u as { embedded_wallet?: { invalid?: unknown } } | null)?.embedded_wallet?.invalid
      if (typeof bad === 'string') return void errors.push({ index: offset + i, error: `embedded_wallet: ${bad}`.slice(0, 300) })
      const r = importUserSchema.safeParse(u)
      if (!r.success) return void errors.push({ index: offset + i, error: r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ').slice(0, 300) })
      try {
        const w = r.data.embedded_wallet
        const list = w ? pregeneratedAccounts(w) : undefined
        parsed.push({ index: offset + i, user: r.data, accounts: r.data.linked_accounts.map(toAccount), ...(w && list ? { wallet: { w, list } } : {}) })
      } catch (err) {
        errors.push({ index: offset + i, error: err instanceof ApiError ? err.message : err instanceof Error && err.message.startsWith('embedded_wallet') ? err.message : 'Invalid account' })
      }
    })
    return ctx.store.transaction(async (q) => {
      await repo.lockUsersOfApp(q, appId)
      // A pre-generated wallet's addresses count as accounts: one already linked makes the user an existing one.
      const walletKeys = (p: (typeof parsed)[number]) => (p.wallet?.list ?? []).map((w) => ({ type: 'wallet', identifier: walletIdentifier(w) }))
      const all = parsed.flatMap((p) => [...p.accounts, ...walletKeys(p)])
      const taken = await repo.existingAccounts(q, appId, all.map((a) => a.type), all.map((a) => a.identifier))
      const withWallet: { id: string; wallet: NonNullable<(typeof parsed)[number]['wallet']> }[] = []
      const ids: string[] = []
      const created: number[] = []
      const meta: (string | null)[] = []
      const acc = { userIds: [] as string[], types: [] as string[], identifiers: [] as string[], data: [] as string[] }
      let existing = 0
      for (const p of parsed) {
        const keys = [...p.accounts, ...walletKeys(p)].map((a) => `${a.type}\u0000${a.identifier}`)
        // Already imported (or signed up): the same user again changes nothing.
        if (keys.some((k) => taken.has(k))) {
          existing++
          continue
        }
        const id = newUserId()
        for (const k of keys) taken.add(k)
        ids.push(id)
        if (p.wallet) withWallet.push({ id, wallet: p.wallet })
        created.push(p.user.created_at ?? t)
        meta.push(p.user.custom_metadata ? JSON.stringify(p.user.custom_metadata) : null)
        for (const a of p.accounts) {
          acc.userIds.push(id)
          acc.types.push(a.type)
          acc.identifiers.push(a.identifier)
          acc.data.push(JSON.stringify(a.data))
        }
      }
      if (ids.length) {
        await repo.insertUsers(q, appId, ids, created, meta)
        const got = await repo.insertAccounts(q, appId, acc, t)
        // An identifier a login took between the check and the write: that user is theirs already.
        const lost = ids.filter((id) => !got.has(id))
        await repo.deleteUsers(q, lost)
        for (const x of withWallet) if (got.has(x.id)) await insertPregenerated(q, appId, x.id, x.wallet.w, x.wallet.list, t)
        existing += lost.length
        return { created: ids.length - lost.length, existing, failed: errors.length, errors }
      }
      return { created: 0, existing, failed: errors.length, errors }
    })
  }

  /** Runs (or resumes) a job from `from`, a batch at a time, each recording its progress. */
  async function run(id: string, appId: string, from: number, total: number) {
    if (running.has(id)) return
    running.add(id)
    try {
      for (let at = from; at < total; ) {
        const users = await repo.importSlice(ctx.store, id, at, IMPORT_BATCH)
        const r = await batch(appId, users, at)
        const done = at + users.length >= total
        const moved = await repo.recordImportBatch(ctx.store, id, at, { processed: users.length, created: r.created, existing: r.existing, failed: r.failed, errors: r.errors, done, t: now() })
        if (!moved) return // another process resumed it
        at += users.length
        if (!users.length) break
      }
    } catch (err) {
      ctx.log.error({ import_id: id, err_name: (err as Error)?.name, err_code: (err as { code?: string })?.code }, 'user import failed')
      await repo.failImport(ctx.store, id, now()).catch(() => {})
    } finally {
      running.delete(id)
    }
  }

  return {
    /** A new job (202), or the job this idempotency key already names (200); its batches run after the answer. */
    async start(admin: Admin, appId: string, key: string, users: unknown[]) {
      const t = now()
      // The idempotency hash is of what was sent; what is kept has every auth share sealed.
      const bodyHash = sha256hex(stable(users))
      const kept = await sealIncoming(ctx, appId, users)
      const { row, inserted } = await ctx.store.transaction(async (q) => {
        const r = await repo.insertImport(q, {
          id: `imp_${randomBytes(9).toString('base64url')}`,
          appId,
          key,
          bodyHash,
          payload: JSON.stringify(kept),
          total: users.length,
          by: admin.actor,
          t,
        })
        if (r.inserted) await repo.insertAudit(q, { actor: admin.actor, action: 'users.import_started', appId, target: r.row.id, after: { total: users.length }, t })
        return r
      })
      if (!inserted && row.body_hash !== bodyHash) throw adminErrors.conflict(ADMIN_MSG.idempotencyReuse)
      if (inserted) void run(row.id, appId, 0, row.total)
      return { job: importView(row), inserted }
    },
    async get(appId: string, id: string) {
      const j = await repo.importById(ctx.store, appId, id)
      if (!j) throw adminErrors.notFound(ADMIN_MSG.importNotFound)
      return importView(j)
    },
    /** Jobs left running by a process that died (nothing moved for 30 s): this process takes them over. */
    async resumeStale() {
      const t = now()
      for (const j of await repo.staleImports(ctx.store, t - 30)) {
        const row = await repo.importById(ctx.store, j.app_id, j.id)
        if (row && (await repo.claimImport(ctx.store, j.id, t - 30, t))) void run(j.id, j.app_id, row.processed, row.total)
      }
    },
  }
}

/** PORTICO_ADMIN_OWNER_EMAIL: the first owner, written while the server has no owner. */
export async function ensureFirstOwner(ctx: Pick<ServerCtx, 'store'>, email: string): Promise<boolean> {
  const e = normaliseEmail(email, 'PORTICO_ADMIN_OWNER_EMAIL')
  return ctx.store.transaction((q) => repo.ensureFirstOwner(q, e, now()))
}
