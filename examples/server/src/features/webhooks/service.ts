/**
 * Webhooks (issue 32): the service the admin API calls (it does not exist yet; nothing public
 * reaches these functions today) and the start-up seeding from apps.json.
 *
 * - `createEndpoint(d, appId, { url, events })` → the endpoint and its signing secret, shown this
 *   once (stored sealed with PORTICO_SECRET: the server must sign with it, so it cannot be a hash);
 * - `listEndpoints`, `disableEndpoint`;
 * - `listDeliveries(d, appId, { endpointId?, state?, limit? })` and `deliveryAttempts` (the log);
 * - `replayDelivery(d, appId, deliveryId)`: sends the delivery again, with the same message id;
 * - `seedConfigEndpoints(d, apps)`: apps.json's `webhooks`, idempotent.
 *
 * Events are written by `core/events.ts` (emitEvent) and sent by `worker.ts`.
 * `user.deleted`: the admin API's user deletion calls `emitUserDeleted(tx, appId, userId,
 * 'deleted_by_admin')` from core/events.ts inside its deleting transaction.
 */
import { randomBytes } from 'node:crypto'
import type { AppSettings } from '../../config'
import { ConfigError } from '../../settings'
import { WEBHOOK_EVENTS, wakeWorkers, type WebhookEventType } from '../../core/events'
import type { Store } from '../../core/store'
import type { Keys } from '../../keys'
import { webhookEvents, webhookUrl } from '../../webhooks-config'
import { webhookErrors } from './errors'
import * as repo from './repo'

/** The seal purpose of endpoint secrets (rotate-keys re-wraps them). */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-secret'

export interface WebhookDeps {
  store: Store
  keys: Keys
}

/** An endpoint as the service shows it: never its secret. */
export interface WebhookEndpoint {
  id: string
  app_id: string
  url: string
  events: WebhookEventType[]
  enabled: boolean
  source: 'config' | 'api'
  created_at: number
  updated_at: number
}

export interface WebhookDelivery {
  id: string
  endpoint_id: string
  event_type: string
  payload: string
  created_at: number
  state: 'pending' | 'delivered' | 'failed'
  attempts: number
  next_attempt_at: number | null
  last_status: number | null
  delivered_at: number | null
}

const now = () => Math.floor(Date.now() / 1000)
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`
const newId = () => `we_${randomBytes(12).toString('hex')}`

const show = (r: repo.EndpointRow): WebhookEndpoint => ({
  id: r.id,
  app_id: r.app_id,
  url: r.url,
  events: r.events as WebhookEventType[],
  enabled: r.enabled,
  source: r.source,
  created_at: r.created_at,
  updated_at: r.updated_at,
})

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, field: string, v: unknown): T {
  const r = schema.safeParse(v)
  if (!r.success) throw webhookErrors.invalid(field, r.error.issues[0]?.message ?? 'invalid')
  return r.data
}

/** A new endpoint; `secret` is returned this once. */
export async function createEndpoint(d: WebhookDeps, appId: string, input: { url: unknown; events: unknown }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = parse(webhookUrl, 'url', input.url)
  const events = parse(webhookEvents, 'events', input.events)
  const secret = newSecret()
  const id = newId()
  const t = now()
  await repo.insertEndpoint(d.store, { id, appId, url, secret: await d.keys.seal(secret, WEBHOOK_SECRET_PURPOSE), events, source: 'api', t })
  return { endpoint: { id, app_id: appId, url, events, enabled: true, source: 'api', created_at: t, updated_at: t }, secret }
}

export async function listEndpoints(d: WebhookDeps, appId: string): Promise<WebhookEndpoint[]> {
  return (await repo.selectEndpoints(d.store, appId)).map(show)
}

/** Stops sending to the endpoint (its pending deliveries wait; nothing new is queued for it). */
export async function disableEndpoint(d: WebhookDeps, appId: string, endpointId: string): Promise<void> {
  if (!(await repo.setEndpointEnabled(d.store, appId, endpointId, false, now()))) throw webhookErrors.endpointNotFound()
}

/**
 * Changes an endpoint: url, events, enabled (absent: unchanged). An endpoint from apps.json is
 * the file's to change (the next start would undo the change): refused with 409.
 */
export async function updateEndpoint(d: WebhookDeps, appId: string, endpointId: string, input: { url?: unknown; events?: unknown; enabled?: unknown }): Promise<WebhookEndpoint> {
  const url = input.url === undefined ? null : parse(webhookUrl, 'url', input.url)
  const events = input.events === undefined ? null : parse(webhookEvents, 'events', input.events)
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') throw webhookErrors.invalid('enabled', 'must be true or false')
  const enabled = (input.enabled as boolean | undefined) ?? null
  const current = await repo.selectEndpoint(d.store, appId, endpointId)
  if (!current) throw webhookErrors.endpointNotFound()
  if (current.source === 'config') throw webhookErrors.configEndpoint()
  const r = await repo.updateApiEndpoint(d.store, appId, endpointId, { url, events, enabled, t: now() })
  if (!r) throw webhookErrors.endpointNotFound()
  if (r.enabled) wakeWorkers()
  return show(r)
}

/** Deletes an endpoint made through the API, its deliveries and their log. */
export async function deleteEndpoint(d: WebhookDeps, appId: string, endpointId: string): Promise<void> {
  const current = await repo.selectEndpoint(d.store, appId, endpointId)
  if (!current) throw webhookErrors.endpointNotFound()
  if (current.source === 'config') throw webhookErrors.configEndpoint()
  if (!(await repo.deleteEndpoint(d.store, appId, endpointId))) throw webhookErrors.endpointNotFound()
}

export async function listDeliveries(d: WebhookDeps, appId: string, o: { endpointId?: string; state?: 'pending' | 'delivered' | 'failed'; limit?: number } = {}): Promise<WebhookDelivery[]> {
  const limit = Math.min(Math.max(Math.trunc(o.limit ?? 100), 1), 1000)
  return (await repo.selectDeliveries(d.store, appId, { endpointId: o.endpointId, state: o.state, limit })).map((r) => ({
    id: r.id,
    endpoint_id: r.endpoint_id,
    event_type: r.event_type,
    payload: r.payload,
    created_at: r.created_at,
    state: r.state,
    attempts: r.attempts,
    next_attempt_at: r.state === 'pending' ? Math.ceil(r.next_attempt_ms / 1000) : null,
    last_status: r.last_status,
    delivered_at: r.delivered_at,
  }))
}

/** The delivery log of one delivery: every attempt's status (or error) and duration. */
export async function deliveryAttempts(d: WebhookDeps, appId: string, deliveryId: string): Promise<repo.AttemptRow[]> {
  if (!(await repo.deliveryOfApp(d.store, appId, deliveryId))) throw webhookErrors.deliveryNotFound()
  return repo.selectAttempts(d.store, deliveryId)
}

/** Queues a delivery again now, with the same message id (receivers that already have it may skip it). */
export async function replayDelivery(d: WebhookDeps, appId: string, deliveryId: string): Promise<void> {
  if (!(await repo.requeue(d.store, appId, deliveryId, Date.now()))) throw webhookErrors.deliveryNotFound()
  wakeWorkers()
}

/**
 * apps.json's endpoints into the database, idempotent: one endpoint per app and URL (source
 * 'config'), its events, secret and enabled flag as the file says; an endpoint that left the
 * file is disabled. One transaction under an advisory lock (processes starting together).
 */
export async function seedConfigEndpoints(d: WebhookDeps, apps: AppSettings[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const wanted: { appId: string; url: string; events: string[]; enabled: boolean; secret: string }[] = []
  const problems: string[] = []
  for (const a of apps) {
    for (const [i, w] of (a.webhooks ?? []).entries()) {
      const secret = w.secret ?? (w.secretEnv ? env[w.secretEnv] : undefined)
      if (!secret) problems.push(`apps: ${a.id}: webhooks.${i}.secretEnv: the environment variable ${w.secretEnv} is not set`)
      else if (!/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/.test(secret)) problems.push(`apps: ${a.id}: webhooks.${i}.secretEnv: ${w.secretEnv} must hold whsec_ and base64`)
      else wanted.push({ appId: a.id, url: w.url, events: w.events, enabled: w.enabled !== false, secret })
    }
  }
  if (problems.length) throw new ConfigError(problems)
  const t = now()
  // Sealing is not deterministic: compare with the stored secret opened, and write only changes.
  await d.store.transaction(async (q) => {
    await repo.lockSeeding(q)
    const existing = await repo.configEndpoints(q)
    const key = (appId: string, url: string) => `${appId}\u0000${url}`
    const byKey = new Map(existing.map((e) => [key(e.app_id, e.url), e]))
    const kept = new Set<string>()
    for (const w of wanted) {
      const e = byKey.get(key(w.appId, w.url))
      if (!e) {
        await repo.insertEndpoint(q, { id: newId(), appId: w.appId, url: w.url, secret: await d.keys.seal(w.secret, WEBHOOK_SECRET_PURPOSE), events: w.events, source: 'config', t })
        continue
      }
      kept.add(e.id)
      const same = await d.keys.open(e.secret, WEBHOOK_SECRET_PURPOSE).then((s) => s === w.secret, () => false)
      if (same && e.enabled === w.enabled && e.events.join() === w.events.join()) continue
      await repo.updateConfigEndpoint(q, e.id, { secret: same ? null : await d.keys.seal(w.secret, WEBHOOK_SECRET_PURPOSE), events: w.events, enabled: w.enabled, t })
    }
    for (const e of existing) {
      if (!kept.has(e.id) && e.enabled) await repo.updateConfigEndpoint(q, e.id, { secret: null, events: e.events, enabled: false, t })
    }
  })
}

export { WEBHOOK_EVENTS }
