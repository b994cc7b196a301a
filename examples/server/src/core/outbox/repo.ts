/** The webhook outbox's write (migration 036): the rows core/events.ts adds inside a change's transaction. */
import type { Queryable } from '../store'

/**
 * One delivery row per event and enabled endpoint of the app subscribed to it, in one
 * statement (none when the app has no such endpoint). Returns how many rows were written.
 */
export async function insertDeliveries(q: Queryable, appId: string, types: string[], payloads: string[], t: number, dueMs: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH ins AS (
       INSERT INTO webhook_deliveries (id, endpoint_id, app_id, event_type, payload, created_at, next_attempt_ms)
       SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, e.app_id, ev.type, ev.payload, $4, $5
         FROM webhook_endpoints e
         JOIN unnest($2::text[], $3::text[]) AS ev(type, payload) ON ev.type = ANY (e.events)
        WHERE e.app_id = $1 AND e.enabled
       RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
    [appId, types, payloads, t, dueMs],
  )
  return Number(rows[0]?.n ?? 0)
}
