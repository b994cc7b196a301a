/**
 * Database round trips per e-mail login (issue 19, scale): every statement and every
 * BEGIN / COMMIT is a round trip to PostgreSQL, and the biggest cost of a login after the
 * HTTP requests themselves. Counts the statements and transactions the server sends through its Store for
 * the three requests of a login (init, the dev outbox, authenticate), for a new user and for
 * a returning one, so a change that adds a round trip shows up here.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Store, Tx } from '../src/core/store'
import { startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

interface Counts {
  statements: number
  transactions: number
  /** Statements sent while another of the same transaction was still unanswered (pg pipeline mode: no round trip of their own). */
  pipelined: number
}

/** The store, counting statements and transactions (each transaction adds BEGIN and COMMIT). */
function counting(inner: Store): { store: Store; counts: Counts; reset(): void } {
  const counts: Counts = { statements: 0, transactions: 0, pipelined: 0 }
  const store: Store = {
    kind: inner.kind,
    query: (sql, params) => {
      counts.statements++
      return inner.query(sql, params)
    },
    transaction: (fn) =>
      inner.transaction((tx) => {
        counts.transactions++
        let inFlight = 0
        const q: Tx = {
          exec: (script) => tx.exec(script),
          query: async (sql, params) => {
            counts.statements++
            if (inFlight > 0) counts.pipelined++
            inFlight++
            try {
              return await tx.query(sql, params)
            } finally {
              inFlight--
            }
          },
        }
        return fn(q)
      }),
    migrate: () => inner.migrate(),
    close: () => inner.close(),
  }
  return {
    store,
    counts,
    reset() {
      counts.statements = 0
      counts.transactions = 0
      counts.pipelined = 0
    },
  }
}

/**
 * Round trips on PostgreSQL: each statement, and each transaction's COMMIT (its BEGIN is
 * pipelined with the first statement, store/postgres.ts), less the statements sent while an
 * earlier one of their transaction was still unanswered (they travel with it).
 */
const roundTrips = (c: Counts) => c.statements - c.pipelined + c.transactions

let inner: Store
let counted: ReturnType<typeof counting>
let server: TestServer

beforeAll(async () => {
  // The housekeeping deletes (expired codes, old rate-limit windows) run on 1 request in 500
  // (Math.random() < 0.002); they are not part of a login's round trips, so never here.
  vi.spyOn(Math, 'random').mockReturnValue(0.5)
  inner = await openTestStore()
  counted = counting(inner)
  // Nor is the app-settings version poll (a read every 250 ms, issue 32): apps from the file, in memory.
  server = await startTestServer(counted.store, { appsInDatabase: false })
})
afterAll(async () => {
  vi.restoreAllMocks()
  await server?.close()
  await inner?.close()
})

/** Counts of one step of a login. */
async function step<T>(fn: () => Promise<T>): Promise<Counts & { roundTrips: number; result: T }> {
  counted.reset()
  const result = await fn()
  return { ...counted.counts, roundTrips: roundTrips(counted.counts), result }
}

async function login(email: string) {
  const init = await step(() => server.call('/api/v1/passwordless/init', { body: { email } }))
  expect(init.result.status).toBe(200)
  const outbox = await step(() => server.code(email))
  const auth = await step(() => server.call('/api/v1/passwordless/authenticate', { body: { email, code: outbox.result } }))
  expect(auth.result.status).toBe(200)
  return { init, outbox, auth, total: init.roundTrips + outbox.roundTrips + auth.roundTrips }
}

const show = (r: Awaited<ReturnType<typeof login>>) =>
  JSON.stringify({
    init: { statements: r.init.statements, pipelined: r.init.pipelined, transactions: r.init.transactions },
    outbox: { statements: r.outbox.statements },
    authenticate: { statements: r.auth.statements, transactions: r.auth.transactions },
    roundTrips: r.total,
  })

describe('database round trips per e-mail login', () => {
  it('a new user', async () => {
    const r = await login(uniqueEmail('rt-new'))
    console.log('new user', show(r))
    // init: the counters and the code with its dev outbox row (pipelined), COMMIT;
    // authenticate: the code check, the account lookup, user + account + session + refresh
    // token in one statement, COMMIT.
    expect({ init: r.init.roundTrips, auth: r.auth.roundTrips }).toEqual({ init: 2, auth: 4 })
    expect(r.total).toBe(7)
  })

  it('a returning user', async () => {
    const email = uniqueEmail('rt-again')
    await login(email)
    const r = await login(email)
    console.log('returning user', show(r))
    // authenticate: the code check, the account refreshed (UPDATE … RETURNING), session +
    // refresh token + the user read back in one statement, COMMIT.
    expect(r.auth.roundTrips).toBe(4)
    expect(r.total).toBe(7)
  })
})
