import type { Context } from 'hono'
import { z } from 'zod'
import { ApiError, errors } from './errors'

/**
 * Request bodies are zod schemas (one per route, also the source of /openapi.json).
 * Invalid JSON gives 400 invalid_data; missing or wrong-typed fields 422 invalid_data with
 * a message like "email: Required" and `data.fields` = {email: 'Required'}.
 *
 * Every string anywhere in a body must be well-formed UTF-16 without NUL (PostgreSQL text
 * and jsonb cannot hold U+0000); identifiers (`id()`) also refuse every control character,
 * so none can reach a query, a log line or the console.
 */

// Linear-time patterns only (single character classes, no nested quantifiers).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
const CONTROL_BUT_NEWLINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

export const noControl = (s: string) => !CONTROL.test(s)

/** A required string: present, not blank. */
const required = (s: z.ZodString) => s.refine((v) => v.trim() !== '', { message: 'Required', abort: true })

/** An identifier (e-mail, phone, address, nonce, event name ...): bounded, no control characters. */
export function id(max = 256) {
  return required(z.string().max(max, `Must be at most ${max} characters`)).refine(noControl, 'Must not contain control characters')
}
/** Optional identifier-like string (null counts as absent). */
export function optId(max = 256) {
  return z.string().max(max, `Must be at most ${max} characters`).refine(noControl, 'Must not contain control characters').nullish()
}
/** Free text with line breaks (a sign-in message): bounded, no control characters but CR/LF/TAB. */
export function text(max: number) {
  return required(z.string().max(max, `Must be at most ${max} characters`)).refine(
    (s) => !CONTROL_BUT_NEWLINES.test(s),
    'Must not contain control characters',
  )
}

export const mode = z
  .enum(['login-or-sign-up', 'no-signup'], { message: "Expected 'login-or-sign-up' or 'no-signup'" })
  .nullish()

export async function readBody(c: Context): Promise<Record<string, unknown>> {
  const raw = await c.req.text()
  if (!raw.trim()) return {}
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw errors.invalidData('Invalid JSON body')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.invalidData('Expected a JSON object body')
  }
  const bad = badString(value, '')
  if (bad !== null) {
    const field = bad || 'body'
    throw new ApiError(422, 'invalid_data', `${field}: Must not contain NUL or unpaired surrogates`, {
      fields: { [field]: 'Must not contain NUL or unpaired surrogates' },
    })
  }
  return value as Record<string, unknown>
}

/** Path of the first string (value or key) holding NUL or a lone surrogate, else null. Depth-bounded. */
function badString(v: unknown, path: string, depth = 0): string | null {
  if (typeof v === 'string') return v.includes('\u0000') || !wellFormed(v) ? path : null
  if (!v || typeof v !== 'object') return null
  if (depth > 32) return path
  for (const [k, x] of Object.entries(v)) {
    const p = path ? `${path}.${k}` : k
    if (k.includes('\u0000') || !wellFormed(k)) return p
    const r = badString(x, p, depth + 1)
    if (r !== null) return r
  }
  return null
}

/** No unpaired surrogate (String.prototype.isWellFormed, Node 20). */
const wellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

export function check<S extends z.ZodType>(value: Record<string, unknown>, schema: S): z.infer<S> {
  const r = schema.safeParse(value, { reportInput: true })
  if (r.success) return r.data
  const fields: Record<string, string> = {}
  for (const iss of r.error.issues) {
    const key = iss.path.map(String).join('.') || 'body'
    if (fields[key]) continue
    if (iss.code === 'invalid_type') {
      const input = (iss as { input?: unknown }).input
      fields[key] = input === undefined || input === null ? 'Required' : `Expected ${iss.expected}, received ${kind(input)}`
    } else fields[key] = iss.message
  }
  const keys = Object.keys(fields)
  throw new ApiError(422, 'invalid_data', keys.map((k) => `${k}: ${fields[k]}`).join('; '), { fields })
}

/** readBody + check in one call. */
export async function body<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return check(await readBody(c), schema)
}
