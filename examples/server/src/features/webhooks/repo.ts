/** Webhooks' queries (migration 036): endpoints, the outbox's leases and results, the delivery log. */
import type { Queryable } from '../../core/store'

export interface EndpointRow {
  id: string
  app_id: string
  url: string
  /** The signing secret, sealed. */
  secret: string
  events: string[]
  enabled: boolean
  source: 'config' | 'api'
  created_at: number
  updated_at: number
}

export interface DeliveryRow {
  id: string
  endpoint_id: string
  app_id: string
  event_type: string
  payload: string
  created_at: number
  state: 'pending' | 'delivered' | 'failed'
  attempts: number
  next_attempt_ms: number
  last_status: number | null
  delivered_at: number | null
}

export interface AttemptRow {
  attempt: number
  at: number
  status: number | null
  duration_ms: number
  error: string | null
}

/** A leased delivery with what sending it needs. */
export interface LeasedRow {
  id: string
  endpoint_id: string
  payload: string
  attempts: number
  url: string
  secret: string
  updated_at: number
}

const endpointRow = (r: EndpointRow): EndpointRow => ({ ...r, created_at: Number(r.created_at), updated_at: Number(r.updated_at) })

export async function insertEndpoint(q: Queryable, e: { id: string; appId: string; url: string; secret: string; events: string[]; source: 'config' | 'api'; t: number }): Promise<void> {
  await q.query(
    `INSERT INTO webhook_endpoints (id, app_id, url, secret, events, enabled, source, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::text[], true, $6, $7, $7)`,
    [e.id, e.appId, e.url, e.secret, e.events, e.source, e.t],
  )
}

export async function selectEndpoints(q: Queryable, appId: string): Promise<EndpointRow[]> {
  return (await q.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE app_id = $1 ORDER BY created_at, id', [appId])).map(endpointRow)
}

export async function selectEndpoint(q: Queryable, appId: string, id: string): Promise<EndpointRow | undefined> {
  const [r] = await q.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE app_id = $1 AND id = $2', [appId, id])
  return r && endpointRow(r)
}

export async function setEndpointEnabled(q: Queryable, appId: string, id: string, enabled: boolean, t: number): Promise<boolean> {
  return (await q.query('UPDATE webhook_endpoints SET enabled = $3, updated_at = $4 WHERE app_id = $1 AND id = $2 RETURNING 1', [appId, id, enabled, t])).length > 0
}

/** The endpoints apps.json gave (locked for the seeding transaction). */
export async function configEndpoints(q: Queryable): Promise<EndpointRow[]> {
  return (await q.query<EndpointRow>("SELECT * FROM webhook_endpoints WHERE source = 'config' FOR UPDATE")).map(endpointRow)
}

export async function updateConfigEndpoint(q: Queryable, id: string, e: { secret: string | null; events: string[]; enabled: boolean; t: number }): Promise<void> {
  await q.query('UPDATE webhook_endpoints SET secret = coalesce($2, secret), events = $3::text[], enabled = $4, updated_at = $5 WHERE id = $1', [id, e.secret, e.events, e.enabled, e.t])
}

/** Serialises seeding between processes starting together. */
export async function lockSeeding(q: Queryable): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(727275)')
}

/**
 * Leases up to `limit` due deliveries of enabled endpoints until `leaseUntilMs` and counts the
 * attempt: one statement. FOR UPDATE SKIP LOCKED: another worker's claim running at the same
 * moment passes over these rows, and the lease keeps them from the next claims until it runs
 * out (a worker that died mid-send: the row is sent again after the lease).
 */
export async function leaseDue(q: Queryable, nowMs: number, leaseUntilMs: number, limit: number): Promise<LeasedRow[]> {
  return q.query<LeasedRow>(
    `UPDATE webhook_deliveries d SET lease_until_ms = $2, attempts = d.attempts + 1
       FROM (SELECT x.id FROM webhook_deliveries x JOIN webhook_endpoints e ON e.id = x.endpoint_id AND e.enabled
              WHERE x.state = 'pending' AND x.next_attempt_ms <= $1 AND (x.lease_until_ms IS NULL OR x.lease_until_ms <= $1)
              ORDER BY x.next_attempt_ms LIMIT $3 FOR UPDATE OF x SKIP LOCKED) c,
            webhook_endpoints e
      WHERE d.id = c.id AND e.id = d.endpoint_id
      RETURNING d.id, d.endpoint_id, d.payload, d.attempts, e.url, e.secret, e.updated_at`,
    [nowMs, leaseUntilMs, limit],
  )
}

/** The earliest time a pending delivery of an enabled endpoint falls due (ms), or null. */
export async function nextDue(q: Queryable): Promise<number | null> {
  const [r] = await q.query<{ t: number | null }>(
    `SELECT min(greatest(d.next_attempt_ms, coalesce(d.lease_until_ms, 0)))::bigint AS t
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled WHERE d.state = 'pending'`,
  )
  return r?.t == null ? null : Number(r.t)
}

export interface AttemptResult {
  id: string
  attempt: number
  state: 'pending' | 'delivered' | 'failed'
  nextAttemptMs: number
  status: number | null
  durationMs: number
  error: string | null
}

/** Records a batch of attempts (the log rows and each delivery's new state) in one statement. */
export async function recordAttempts(q: Queryable, results: AttemptResult[], t: number): Promise<void> {
  if (!results.length) return
  await q.query(
    `WITH r AS (SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::bigint[], $5::int[], $6::int[], $7::text[]) AS r(id, attempt, state, next_ms, status, duration_ms, error)),
          u AS (UPDATE webhook_deliveries d SET state = r.state, next_attempt_ms = r.next_ms, lease_until_ms = NULL, last_status = r.status,
                       delivered_at = CASE WHEN r.state = 'delivered' THEN $8 ELSE d.delivered_at END
                  FROM r WHERE d.id = r.id)
     INSERT INTO webhook_attempts (delivery_id, attempt, at, status, duration_ms, error)
     SELECT id, attempt, $8, status, duration_ms, error FROM r`,
    [
      results.map((r) => r.id),
      results.map((r) => r.attempt),
      results.map((r) => r.state),
      results.map((r) => r.nextAttemptMs),
      results.map((r) => r.status),
      results.map((r) => r.durationMs),
      results.map((r) => r.error),
      t,
    ],
  )
}

export async function selectDeliveries(q: Queryable, appId: string, o: { endpointId?: string; state?: string; limit: number }): Promise<DeliveryRow[]> {
  const rows = await q.query<DeliveryRow>(
    `SELECT id, endpoint_id, app_id, event_type, payload, created_at, state, attempts, next_attempt_ms, last_status, delivered_at
       FROM webhook_deliveries WHERE app_id = $1 AND ($2::text IS NULL OR endpoint_id = $2) AND ($3::text IS NULL OR state = $3)
      ORDER BY created_at DESC, id LIMIT $4`,
    [appId, o.endpointId ?? null, o.state ?? null, o.limit],
  )
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at), next_attempt_ms: Number(r.next_attempt_ms), delivered_at: r.delivered_at == null ? null : Number(r.delivered_at) }))
}

export async function deliveryOfApp(q: Queryable, appId: string, id: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM webhook_deliveries WHERE app_id = $1 AND id = $2', [appId, id])).length > 0
}

export async function selectAttempts(q: Queryable, deliveryId: string): Promise<AttemptRow[]> {
  const rows = await q.query<AttemptRow>('SELECT attempt, at, status, duration_ms, error FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id', [deliveryId])
  return rows.map((r) => ({ ...r, at: Number(r.at) }))
}

/** Puts a delivery back in the queue now (manual replay): a new round of attempts, the same message id. */
export async function requeue(q: Queryable, appId: string, id: string, nowMs: number): Promise<boolean> {
  return (
    (await q.query("UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_ms = $3, lease_until_ms = NULL WHERE app_id = $1 AND id = $2 RETURNING 1", [appId, id, nowMs]))
      .length > 0
  )
}

/**
 * Outbox pruning: deletes up to `limit` delivered rows delivered before `beforeS` (seconds) and
 * failed rows whose last attempt was before `beforeMs`; their delivery-log rows go with them
 * (ON DELETE CASCADE). Pending rows are never touched. Returns the rows deleted.
 */
export async function pruneDeliveries(q: Queryable, beforeS: number, beforeMs: number, limit: number): Promise<number> {
  const rows = await q.query(
    `DELETE FROM webhook_deliveries WHERE id IN (
       (SELECT id FROM webhook_deliveries WHERE state = 'delivered' AND delivered_at < $1 LIMIT $3)
       UNION ALL
       (SELECT id FROM webhook_deliveries WHERE state = 'failed' AND next_attempt_ms < $2 LIMIT $3))
     RETURNING 1`,
    [beforeS, beforeMs, limit],
  )
  return rows.length
}

/** Changes an endpoint made through the API (url, events, enabled; null leaves one as it is). */
export async function updateApiEndpoint(q: Queryable, appId: string, id: string, e: { url: string | null; events: string[] | null; enabled: boolean | null; t: number }): Promise<EndpointRow | undefined> {
  const [r] = await q.query<EndpointRow>(
    `UPDATE webhook_endpoints SET url = coalesce($3, url), events = coalesce($4::text[], events), enabled = coalesce($5, enabled), updated_at = $6
      WHERE app_id = $1 AND id = $2 RETURNING *`,
    [appId, id, e.url, e.events, e.enabled, e.t],
  )
  return r && endpointRow(r)
}

/** Deletes an endpoint and (cascade) its deliveries and their log. */
export async function deleteEndpoint(q: Queryable, appId: string, id: string): Promise<boolean> {
  return (await q.query('DELETE FROM webhook_endpoints WHERE app_id = $1 AND id = $2 RETURNING 1', [appId, id])).length > 0
}
