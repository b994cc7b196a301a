/**
 * Storage behind one small interface: a PostgreSQL dialect executor with transactions.
 * Both back ends (PGlite embedded, real PostgreSQL through `pg`) speak the same SQL, so a
 * feature's queries live once in its `repo.ts` and every multi-step write runs inside
 * `transaction()`.
 */
export interface Queryable {
  query<T = Record<string, any>>(sql: string, params?: unknown[]): Promise<T[]>
}

/** A transaction's connection: parameterised statements, and scripts (migrations). */
export interface Tx extends Queryable {
  /**
   * Runs a script of several statements as PostgreSQL parses it (simple query protocol: no
   * parameters, no rows back), so quoting, comments and `$$` bodies are the server's business.
   */
  exec(script: string): Promise<void>
  /**
   * Runs `fn` once the transaction has committed (not on rollback). Optional: a wrapper may
   * leave it out, so callers use `tx.afterCommit?.(fn)` for work that may also happen later
   * (the webhook worker's wake-up).
   */
  afterCommit?(fn: () => void): void
}

export interface Store extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction (BEGIN ... COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>
  /** Applies pending SQL migrations (idempotent, safe with several processes). */
  migrate(): Promise<void>
  /**
   * LISTEN on a channel (PostgreSQL only; absent on PGlite): `fn` runs for each notification
   * committed by any process. A lost connection is re-opened in the background (a notification
   * sent meanwhile is missed: callers keep polling as the fallback). Answers the unsubscribe.
   */
  listen?(channel: string, fn: (payload: string) => void): () => void
  close(): Promise<void>
}

/** PostgreSQL unique_violation. */
export function isUniqueViolation(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: string }).code === '23505'
}
