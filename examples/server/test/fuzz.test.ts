/**
 * Property-based fuzz of every route body (fast-check), driven by the server's own
 * /openapi.json: bodies shaped like the schema with hostile values (NUL, control and
 * unpaired-surrogate strings, huge and odd numbers, wrong types, extra keys), plus raw junk.
 * Properties: no answer is 5xx, and a 4xx answer leaves users, accounts, sessions and
 * refresh tokens as they were (no partial writes). Bounded: RUNS bodies per route.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Store } from '../src/core/store'
import { DEMO, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

const RUNS = Number(process.env.FUZZ_RUNS ?? 30)

let store: Store
let s: TestServer
let token = ''
let refresh = ''

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { limits: { refreshReuseIntervalS: 10 } })
  const login = await s.emailLogin(uniqueEmail('fuzz'))
  token = login.body.token!
  refresh = login.body.refresh_token!
})
afterAll(async () => {
  await s?.close()
  await store?.close()
})

type Schema = {
  type?: string
  properties?: Record<string, Schema>
  required?: string[]
  anyOf?: Schema[]
  enum?: unknown[]
  maxLength?: number
}

/** Plausible values per field name, so that bodies get past validation and into the flows. */
const HINTS: [RegExp, string[]][] = [
  [/email|address$|Address$/i, ['fuzz@example.com', 'Fuzz+x@Example.COM', 'allowed@example.com']],
  [/address/i, ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH']],
  [/phone/i, ['+14155550100', '(415) 555-0100']],
  [/^code$/, ['123456', ' 123 456 ']],
  [/nonce/, ['abcdefabcdefabcdefabcdefabcdefab']],
  [/mode/, ['login-or-sign-up', 'no-signup']],
  [/guest_credential/, [Buffer.alloc(32, 1).toString('base64url')]],
  [/eventName/, ['modal_open']],
  [/chainId/, ['eip155:1', '8453']],
  [/signature/, ['0x' + 'ab'.repeat(65)]],
  [/message/, ['localhost:5173 wants you to sign in with your Ethereum account:\n0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n\nURI: http://localhost:5173\nVersion: 1\nChain ID: 1\nNonce: abcdefgh12345678\nIssued At: 2026-01-01T00:00:00Z']],
  [/token/, ['captcha-token', 'x.y.z']],
]
const plausibleFor = (field: string) => fc.constantFrom(...(HINTS.find(([re]) => re.test(field))?.[1] ?? ['value']))
/** A plausible value with one hostile character put in (NUL, escape, lone surrogate, newline, bidi). */
const tainted = (field: string) =>
  fc
    .tuple(plausibleFor(field), fc.nat(), fc.constantFrom('\u0000', '\u001b', '\ud800', '\udc00', '\n', '\u2028', '\u202e', '\u007f', '%00'))
    .map(([v, i, ch]) => v.slice(0, i % (v.length + 1)) + ch + v.slice(i % (v.length + 1)))
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000@example.com',
    '\ud800',
    'fuzz@example.com',
    'FUZZ+tag@Example.com',
    '+14155550100',
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH',
    '123456',
    'login-or-sign-up',
    'no-signup',
    'eip155:1',
    '%zz',
    "'; DROP TABLE users; --",
    'a'.repeat(5000),
    `a@${'a.'.repeat(3000)}`,
    'localhost:5173 wants you to sign in with your Ethereum account:\n0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n\nURI: http://localhost:5173\nVersion: 1\nChain ID: 1\nNonce: abcdefgh12345678\nIssued At: 2026-01-01T00:00:00Z',
  ),
)
const anyJson = fc.jsonValue({ maxDepth: 3 })
const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 53, 1e308, 8453))

function valueFor(field: string, schema: Schema): fc.Arbitrary<unknown> {
  const shaped: fc.WeightedArbitrary<unknown>[] = []
  if (schema.enum) shaped.push({ arbitrary: fc.constantFrom(...schema.enum), weight: 3 })
  if (schema.anyOf) shaped.push(...schema.anyOf.map((x) => ({ arbitrary: valueFor(field, x), weight: 3 })))
  if (schema.type === 'string') {
    shaped.push({ arbitrary: plausibleFor(field), weight: 4 }, { arbitrary: tainted(field), weight: 4 }, { arbitrary: hostileString, weight: 2 })
  }
  if (schema.type === 'number' || schema.type === 'integer') shaped.push({ arbitrary: hostileNumber, weight: 3 })
  if (schema.type === 'object') shaped.push({ arbitrary: fc.dictionary(hostileString, anyJson, { maxKeys: 4 }), weight: 3 })
  // Mostly schema-shaped values, sometimes anything at all.
  return fc.oneof(...shaped, { arbitrary: anyJson, weight: 1 })
}

function bodyFor(schema: Schema): fc.Arbitrary<string> {
  const props = schema.properties ?? {}
  const fields = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valueFor(k, v)]))
  const full = fc.record(fields, { requiredKeys: schema.required ?? [] })
  const partial = fc.record(fields, { requiredKeys: [] })
  const withExtra = fc.tuple(partial, fc.dictionary(hostileString, anyJson, { maxKeys: 2 })).map(([r, x]) => ({ ...x, ...r }))
  return fc.oneof(
    { arbitrary: full.map((b) => JSON.stringify(b)), weight: 8 },
    { arbitrary: withExtra.map((b) => JSON.stringify(b)), weight: 3 },
    { arbitrary: anyJson.map((v) => JSON.stringify(v)), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 1 },
  )
}

async function snapshot() {
  const [row] = await store.query(`SELECT
    (SELECT count(*)::int FROM users) AS users,
    (SELECT coalesce(md5(string_agg(user_id || type || identifier, ',' ORDER BY id)), '') FROM accounts) AS accounts,
    (SELECT count(*)::int FROM sessions) AS sessions,
    (SELECT count(*)::int FROM refresh_tokens) AS refresh_tokens`)
  return row
}

// About 1 200 requests and 2 400 store snapshots: 116 s on a 2-core machine at load 22 (the
// 120 s deadline failed there once). A deadline, not a wait.
it('every route body: no 5xx, and no partial writes on 4xx', { timeout: 600_000 }, async () => {
  const doc = (await s.call('/openapi.json', { appId: null })).body
  const posts = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>)
    .filter(([, ops]) => ops.post)
    .map(([path, ops]) => ({ path, schema: ops.post.requestBody?.content['application/json'].schema ?? {} }))
  expect(posts.length).toBeGreaterThan(25)
  const statuses = new Map<number, number>()
  for (const { path, schema } of posts) {
    await fc.assert(
      fc.asyncProperty(bodyFor(schema), fc.constantFrom('none', 'valid', 'junk'), async (raw, auth) => {
        const before = await snapshot()
        const bearer = auth === 'valid' ? token : auth === 'junk' ? 'x.y.z' : undefined
        // Some bodies carry the live refresh token so that the sessions routes go deep.
        const body = raw.includes('"refresh_token"') ? raw.replace(/"refresh_token":"[^"]*"/, `"refresh_token":"${refresh}"`) : raw
        const r = await s.call(path, { raw: body, token: bearer, headers: { 'x-forwarded-for': '10.0.0.1' } })
        if (process.env.FUZZ_DEBUG) console.log(path, r.status, body.slice(0, 100))
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
        expect(r.status, `${path} ${body.slice(0, 200)}`).toBeLessThan(500)
        if (r.status >= 400) expect(await snapshot(), `${path} wrote on ${r.status}`).toEqual(before)
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 19) },
    )
  }
  // GET routes: hostile path segments.
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), fc.boolean(), async (seg, header) => {
      const r = await s.call(`/api/v1/apps/${encodeURIComponent(seg).replace(/%25/g, '%')}`, { appId: header ? DEMO : null })
      expect(r.status).toBeLessThan(500)
    }),
    { numRuns: RUNS, seed: 19 },
  )
  if (process.env.FUZZ_DEBUG) console.log(JSON.stringify([...statuses]))
  // The fuzz reached past validation too (not only 422s).
  expect([...statuses.keys()].some((k) => k !== 422 && k !== 400)).toBe(true)
})
