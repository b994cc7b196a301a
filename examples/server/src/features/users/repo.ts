/** The users feature's own queries (the user rows themselves are core/identity's). */
import type { Queryable } from '../../core/store'

export async function insertAnalyticsEvent(q: Queryable, e: { appId: string; name: string; payload: string; clientId: string | null; t: number }): Promise<void> {
  await q.query('INSERT INTO analytics_events (app_id, event_name, payload, client_id, created_at) VALUES ($1, $2, $3, $4, $5)', [e.appId, e.name, e.payload, e.clientId, e.t])
}
