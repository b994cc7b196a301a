/** The dev outbox's listing. */
import type { Queryable } from '../../core/store'

export interface OutboxRow {
  to_addr: string
  channel: 'email' | 'sms'
  code: string
  app_id: string
  sent_at: number
}

/** The newest 200 outbox rows, for one address and of one kind when given. */
export async function outbox(q: Queryable, to: string | undefined, kind: 'code' | 'notice' | undefined): Promise<OutboxRow[]> {
  const where = [to !== undefined ? 'to_addr = $1' : null, kind === undefined ? null : `kind = ${kind === 'notice' ? "'notice'" : "'code'"}`].filter(Boolean)
  return q.query<OutboxRow>(`SELECT to_addr, channel, code, app_id, sent_at FROM outbox ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT 200`, to !== undefined ? [to] : [])
}
