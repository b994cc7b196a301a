/**
 * Storage behind one small interface: a PostgreSQL dialect executor with transactions.
 * Both back ends (PGlite embedded, real PostgreSQL through `pg`) speak the same SQL, so the
 * queries live once in `repo.ts` and every multi-step write runs inside `transaction()`.
 */
export interface Queryable {
  query<T = Record<string, any>>(sql: string, params?: unknown[]): Promise<T[]>
}

export interface Store extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction (BEGIN ... COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /** Applies pending SQL migrations (idempotent, safe with several processes). */
  migrate(): Promise<void>
  close(): Promise<void>
}

/** PostgreSQL unique_violation. */
export function isUniqueViolation(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: string }).code === '23505'
}
