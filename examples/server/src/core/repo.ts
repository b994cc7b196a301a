/** core's own queries (the app-secret failure counter). */
import type { Queryable } from './store'

export async function secretFailures(q: Queryable, key: string, window: number): Promise<number> {
  const [row] = await q.query<{ count: number }>('SELECT count FROM rate_limits WHERE key = $1 AND window_start = $2', [key, window])
  return row ? Number(row.count) : 0
}

export async function countSecretFailure(q: Queryable, key: string, window: number): Promise<void> {
  await q.query(
    `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1`,
    [key, window],
  )
}
