/**
 * The webhook worker (issue 32): sends the outbox's deliveries (core/events.ts writes them in
 * the transaction of each change), off the request path.
 *
 * - Woken after a commit that wrote deliveries (core/events.ts `onEventsWritten`), with a short
 *   delay so that a burst of logins goes out as one batch; on PostgreSQL also by another
 *   process's commit (LISTEN/NOTIFY, migration 039); otherwise a timer (`pollMs`) picks up what
 *   other processes wrote (the only path on PGlite), retries that fall due and leases that ran out.
 * - A batch is leased in one statement (`FOR UPDATE SKIP LOCKED` plus a lease, so two workers —
 *   in one process or in several on one PostgreSQL — never send the same row at once), sent
 *   concurrently over keep-alive connections, and its results are written in one statement
 *   (each delivery's state and one delivery-log row per attempt).
 * - Signed per Standard Webhooks (`standardwebhooks`): `webhook-id` (the delivery's message id,
 *   the same on every attempt: receivers deduplicate on it), `webhook-timestamp` (seconds),
 *   `webhook-signature` (v1, HMAC-SHA256 with the endpoint's secret).
 * - Any 2xx is a success; anything else (another status, a redirect, a time-out, a refused
 *   connection) is retried with exponential back-off: `retryBaseMs` × 4^(attempt−1), ±10 %,
 *   `maxAttempts` in all (default 8: 5 s, 20 s, 80 s, 5 min, 21 min, 85 min, 5.7 h), then `failed`.
 * - A process killed between the commit and the send leaves the row pending (or leased until
 *   its lease runs out): the next worker sends it. Delivery is at least once; `webhook-id` makes
 *   it once for a receiver that deduplicates.
 * - Pruning: every `pruneEveryMs` (default 1 h, and once at start) delivered rows older than
 *   `retentionMs` (default 30 days) and failed rows whose last attempt is that old (kept until
 *   then for manual replay) are deleted with their delivery log, `pruneBatch` rows a statement,
 *   so that a large backlog never holds one long transaction. Pending rows are never pruned.
 */
import http from 'node:http'
import https from 'node:https'
import type { Logger } from 'pino'
import { Webhook } from 'standardwebhooks'
import { onEventsWritten } from '../../core/events'
import type { Store } from '../../core/store'
import type { Keys } from '../../keys'
import { checkLiteralHost, publicOnlyLookup } from './destination'
import { leaseDue, pruneDeliveries, recordAttempts, type AttemptResult, type LeasedRow } from './repo'
import { WEBHOOK_SECRET_PURPOSE } from './service'

export interface WebhookWorkerOptions {
  store: Store
  keys: Keys
  log: Logger
  /** Idle poll (ms): other processes' rows, due retries, expired leases. Default 5000. */
  pollMs?: number
  /** Delay after a wake-up (ms), so that a burst is one batch (fewer statements per event). Default 200. */
  wakeDelayMs?: number
  /** Rows per lease. Default 100. */
  batch?: number
  /** Requests in flight at once. Default 16. */
  concurrency?: number
  /** Time-out of one attempt (ms). Default 10000. */
  timeoutMs?: number
  /** Attempts before a delivery is marked failed. Default 8. */
  maxAttempts?: number
  /** First retry delay (ms); each next one is 4× longer. Default 5000. */
  retryBaseMs?: number
  /** Delivered and failed rows are deleted this long after delivery / the last attempt (ms). Default 30 days. */
  retentionMs?: number
  /** How often pruning runs (ms). Default 1 hour; 0: never (tests call prune()). */
  pruneEveryMs?: number
  /** Rows deleted per statement. Default 1000. */
  pruneBatch?: number
  /**
   * Send to loopback, private and link-local addresses too (development mode, or receivers on
   * your own network: PORTICO_WEBHOOKS_ALLOW_PRIVATE=1). Default false: public addresses only
   * (destination.ts).
   */
  allowPrivateNetworks?: boolean
}

export interface WebhookWorker {
  /** Look for due deliveries soon. */
  wake(): void
  /** Runs rounds until nothing is due now (tests). */
  drain(): Promise<void>
  /** Deletes delivered and failed rows past the retention, batch by batch; resolves with the count. */
  prune(): Promise<number>
  /** Stops the timer and waits for the round in flight. */
  stop(): Promise<void>
}

const agentOptions = { keepAlive: true, maxSockets: 32, keepAliveMsecs: 10_000 }
/** Public addresses only: the lookup refuses a private answer before a socket opens. */
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) }
/** Any address (allowPrivateNetworks). */
const openAgents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) }
const USER_AGENT = 'Portico-Webhooks/1'

/** One POST; resolves with the status (the body is read and dropped) or rejects (network, time-out). */
function post(url: URL, body: string, headers: Record<string, string>, timeoutMs: number, allowPrivate: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    if (!allowPrivate) {
      try {
        checkLiteralHost(url)
      } catch (e) {
        return reject(e)
      }
    }
    let done = false
    const settle = (f: () => void) => {
      if (done) return
      done = true
      clearTimeout(timer)
      f()
    }
    const secure = url.protocol === 'https:'
    const req = (secure ? https : http).request(
      {
        agent: (allowPrivate ? openAgents : agents)[secure ? 'https' : 'http'],
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
        method: 'POST',
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || (secure ? 443 : 80),
        path: url.pathname + url.search,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT },
      },
      (res) => {
        res.on('error', () => {})
        res.resume()
        res.on('end', () => settle(() => resolve(res.statusCode ?? 0)))
        // Cut off before the end of the answer: not a delivery.
        res.on('close', () => settle(() => reject(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))))
      },
    )
    const timer = setTimeout(() => {
      settle(() => reject(Object.assign(new Error('time-out'), { code: 'ETIMEDOUT' })))
      req.destroy()
    }, timeoutMs)
    req.on('error', (err) => settle(() => reject(err)))
    req.end(body)
  })
}

export function startWebhookWorker(o: WebhookWorkerOptions): WebhookWorker {
  const pollMs = o.pollMs ?? 5000
  const wakeDelayMs = o.wakeDelayMs ?? 200
  const batch = o.batch ?? 100
  const concurrency = o.concurrency ?? 16
  const timeoutMs = o.timeoutMs ?? 10_000
  const maxAttempts = o.maxAttempts ?? 8
  const retryBaseMs = o.retryBaseMs ?? 5000
  const retentionMs = o.retentionMs ?? 30 * 86_400_000
  const pruneEveryMs = o.pruneEveryMs ?? 3_600_000
  const pruneBatch = o.pruneBatch ?? 1000
  const allowPrivate = o.allowPrivateNetworks ?? false
  // Longer than an attempt can take: a live worker always records its result before the lease ends.
  const leaseMs = 3 * timeoutMs
  /** Opened secrets by endpoint (and its updated_at: a new secret comes with a new one). */
  const signers = new Map<string, { at: number; wh: Webhook }>()
  const urls = new Map<string, URL>()

  let timer: NodeJS.Timeout | null = null
  let timerAt = Infinity
  let running: Promise<number> | null = null
  let again = false
  let stopped = false
  let pruneFirst: NodeJS.Timeout | null = null

  const schedule = (ms: number) => {
    if (stopped) return
    const at = Date.now() + Math.max(0, ms)
    if (timer && timerAt <= at) return
    if (timer) clearTimeout(timer)
    timerAt = at
    timer = setTimeout(() => {
      timer = null
      timerAt = Infinity
      void round()
    }, Math.max(0, ms))
    timer.unref()
  }

  const signer = async (r: LeasedRow) => {
    const at = Number(r.updated_at)
    const c = signers.get(r.endpoint_id)
    if (c && c.at === at) return c.wh
    const wh = new Webhook(await o.keys.open(r.secret, WEBHOOK_SECRET_PURPOSE))
    signers.set(r.endpoint_id, { at, wh })
    return wh
  }
  const urlOf = (s: string) => {
    let u = urls.get(s)
    if (!u) urls.set(s, (u = new URL(s)))
    return u
  }

  const backoff = (attempt: number) => retryBaseMs * 4 ** (attempt - 1) * (0.9 + Math.random() * 0.2)

  async function send(r: LeasedRow): Promise<AttemptResult> {
    const t0 = performance.now()
    let status: number | null = null
    let error: string | null = null
    try {
      const wh = await signer(r)
      const ts = new Date()
      const headers = { 'webhook-id': r.id, 'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)), 'webhook-signature': wh.sign(r.id, ts, r.payload) }
      status = await post(urlOf(r.url), r.payload, headers, timeoutMs, allowPrivate)
      if (status < 200 || status > 299) error = `HTTP ${status}`
    } catch (err) {
      const e = err as { code?: string; name?: string }
      error = (typeof e?.code === 'string' ? e.code : e?.name ?? 'Error').slice(0, 100)
    }
    const durationMs = Math.round(performance.now() - t0)
    const attempt = r.attempts
    if (!error) return { id: r.id, attempt, state: 'delivered', nextAttemptMs: Date.now(), status, durationMs, error: null }
    const last = attempt >= maxAttempts
    return { id: r.id, attempt, state: last ? 'failed' : 'pending', nextAttemptMs: last ? Date.now() : Date.now() + Math.round(backoff(attempt)), status, durationMs, error }
  }

  async function once(): Promise<number> {
    const t = Date.now()
    const rows = await leaseDue(o.store, t, t + leaseMs, batch)
    if (!rows.length) return 0
    const results: AttemptResult[] = new Array(rows.length)
    let next = 0
    await Promise.all(
      Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
        while (next < rows.length) {
          const i = next++
          results[i] = await send(rows[i])
        }
      }),
    )
    await recordAttempts(o.store, results, Math.floor(Date.now() / 1000))
    const failed = results.filter((r) => r.state !== 'delivered')
    for (const f of failed) o.log.warn({ delivery: f.id, attempt: f.attempt, status: f.status, err_code: f.error, state: f.state }, 'webhook delivery failed')
    // A retry due before the next poll: a timer for it.
    const due = failed.filter((f) => f.state === 'pending').map((f) => f.nextAttemptMs)
    if (due.length) schedule(Math.min(...due) - Date.now())
    return rows.length
  }

  /** Leases and sends until a lease comes back short; resolves with the rows handled. */
  function round(): Promise<number> {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      let total = 0
      try {
        let n: number
        do {
          again = false
          n = await once()
          total += n
        } while (!stopped && n === batch)
      } catch (err) {
        const e = err as { code?: string; name?: string }
        o.log.error({ err_name: e?.name, err_code: e?.code }, 'webhook worker round failed')
      } finally {
        running = null
        if (again) schedule(wakeDelayMs)
        schedule(pollMs)
      }
      return total
    })()
    return running
  }

  let pruning: Promise<number> | null = null
  function prune(): Promise<number> {
    if (pruning) return pruning
    pruning = (async () => {
      let total = 0
      try {
        const cutoffMs = Date.now() - retentionMs
        let n: number
        do {
          n = await pruneDeliveries(o.store, Math.floor(cutoffMs / 1000), cutoffMs, pruneBatch)
          total += n
        } while (!stopped && n > 0)
        if (total) o.log.info({ deleted: total }, 'webhook outbox pruned')
      } catch (err) {
        const e = err as { code?: string; name?: string }
        o.log.error({ err_name: e?.name, err_code: e?.code }, 'webhook outbox pruning failed')
      } finally {
        pruning = null
      }
      return total
    })()
    return pruning
  }
  let pruneTimer: NodeJS.Timeout | null = null
  if (pruneEveryMs > 0) {
    const first = setTimeout(() => void prune(), 1000)
    first.unref()
    pruneTimer = setInterval(() => void prune(), pruneEveryMs)
    pruneTimer.unref()
    pruneFirst = first
  }

  const wake = () => schedule(wakeDelayMs)
  const unsubscribe = onEventsWritten(wake)
  // PostgreSQL: rows committed by another process wake this worker at once (migration 039's trigger).
  const unlisten = o.store.listen?.('portico_webhooks', wake)
  // Rows left by a process that stopped (or this one's last run): look at once.
  schedule(0)

  return {
    wake,
    async drain() {
      while (running) await running
      while ((await round()) > 0) {}
    },
    prune,
    async stop() {
      stopped = true
      unsubscribe()
      unlisten?.()
      if (pruneTimer) clearInterval(pruneTimer)
      if (pruneFirst) clearTimeout(pruneFirst)
      await pruning
      if (timer) clearTimeout(timer)
      timer = null
      await running
    },
  }
}
