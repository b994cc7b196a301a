/**
 * Webhook events (issue 32). A feature calls `emitEvent(tx, appId, type, data)` inside the
 * transaction of the change it reports: the event is written to the outbox (one row per
 * subscribed endpoint, `webhook_deliveries`) in that transaction, so a rolled-back change sends
 * nothing and a committed one is delivered even if the process dies right after the commit
 * (features/webhooks/worker.ts sends the rows). After the commit the worker of this process is
 * woken; the others find the rows on their timer.
 *
 * Payloads are `{ type, timestamp (seconds), data }`; `data` names the user and what changed,
 * never a token, code, share or secret.
 */
import type { Queryable, Tx } from './store'
import { insertDeliveries } from './outbox/repo'
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookAccount,
  type WebhookEventData,
  type WebhookEventType,
} from '../../../../server/webhook-events'

/** The event names and payloads are `portico/server`'s (server/webhook-events.ts), written once. */
export const WEBHOOK_EVENTS = WEBHOOK_EVENT_TYPES
export type { WebhookEventType, WebhookEventData }
/** A linked account as the wire shows it (type and its fields), without verification times. */
export type EventAccount = WebhookAccount

export interface WebhookEvent<T extends WebhookEventType = WebhookEventType> {
  type: T
  timestamp: number
  data: WebhookEventData[T]
}

export type EventInput = { [T in WebhookEventType]: { type: T; data: WebhookEventData[T] } }[WebhookEventType]

const listeners = new Set<() => void>()
/** Called after a transaction that wrote outbox rows commits (the webhook worker's wake-up). Returns the unsubscribe. */
export function onEventsWritten(fn: () => void): () => void {
  listeners.add(fn)
  return () => void listeners.delete(fn)
}
/** Wakes the webhook workers of this process (after a commit that wrote deliveries; a replay). */
export const wakeWorkers = () => {
  for (const fn of listeners) {
    try {
      fn()
    } catch {}
  }
}

/** Writes one event to the outbox in `tx` (see the module's comment). */
export function emitEvent<T extends WebhookEventType>(tx: Queryable, appId: string, type: T, data: WebhookEventData[T]): Promise<void> {
  return emitEvents(tx, appId, [{ type, data } as EventInput])
}

/**
 * Several events of one change in one statement. Send it beside another statement of the
 * transaction (`Promise.all`) and it costs no round trip of its own (pg pipeline mode; the
 * PGlite worker's queue).
 */
export async function emitEvents(tx: Queryable, appId: string, events: EventInput[]): Promise<void> {
  if (!events.length) return
  const t = Math.floor(Date.now() / 1000)
  const payloads = events.map((e) => JSON.stringify({ type: e.type, timestamp: t, data: e.data }))
  const n = await insertDeliveries(tx, appId, events.map((e) => e.type), payloads, t, Date.now())
  if (!n) return
  const after = (tx as Partial<Tx>).afterCommit
  // Outside a transaction (or a wrapper without the hook) the statement has committed already.
  if (after) after.call(tx, wakeWorkers)
  else setImmediate(wakeWorkers)
}

/** An account's wire fields for an event: its type and data, nothing else. */
export function eventAccount(type: string, data: Record<string, unknown>): EventAccount {
  return { ...data, type }
}

/**
 * `user.deleted`: the admin API's user deletion (features/admin/service.ts, reason
 * 'deleted_by_admin') calls this in its deleting transaction, as transferAccount does for the
 * user an account transfer empties.
 */
export function emitUserDeleted(tx: Queryable, appId: string, userId: string, reason: string): Promise<void> {
  return emitEvent(tx, appId, 'user.deleted', { user_id: userId, reason })
}
