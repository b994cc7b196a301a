import type { Context } from 'hono'
import { ApiError, errors } from './errors'

/**
 * A tiny body validator. A schema maps field names to a type spec:
 * 'string' | 'number' | 'boolean' | 'object' | 'any', with '?' for optional.
 * Invalid JSON gives 400 invalid_data; missing or wrong-typed fields 422 invalid_data with
 * a message like "email: Required" and `data.fields` = {email: 'Required'}.
 */
type Spec = 'string' | 'number' | 'boolean' | 'object' | 'any' | 'string|number'
type Schema = Record<string, Spec | `${Spec}?`>

type Out<S extends Schema> = {
  [K in keyof S]: S[K] extends `${infer T}?` ? TypeOf<T> | undefined : TypeOf<S[K]>
}
type TypeOf<T> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'string|number'
        ? string | number
        : T extends 'object'
          ? Record<string, unknown>
          : unknown

export async function readBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  if (!text.trim()) return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw errors.invalidData('Invalid JSON body')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.invalidData('Expected a JSON object body')
  }
  return value as Record<string, unknown>
}

export function check<S extends Schema>(body: Record<string, unknown>, schema: S): Out<S> {
  const fields: Record<string, string> = {}
  for (const [key, spec] of Object.entries(schema)) {
    const optional = spec.endsWith('?')
    const type = (optional ? spec.slice(0, -1) : spec) as Spec
    const v = body[key]
    if (v === undefined || v === null) {
      if (!optional) fields[key] = 'Required'
      continue
    }
    const ok =
      type === 'any' ||
      (type === 'object' ? typeof v === 'object' && !Array.isArray(v) : type === 'string|number' ? typeof v === 'string' || typeof v === 'number' : typeof v === type)
    if (!ok) fields[key] = `Expected ${type}, received ${Array.isArray(v) ? 'array' : typeof v}`
    else if (type === 'string' && !optional && (v as string).trim() === '') fields[key] = 'Required'
  }
  const keys = Object.keys(fields)
  if (keys.length) {
    throw new ApiError(422, 'invalid_data', keys.map((k) => `${k}: ${fields[k]}`).join('; '), { fields })
  }
  return body as Out<S>
}

/** readBody + check in one call. */
export async function body<S extends Schema>(c: Context, schema: S): Promise<Out<S>> {
  return check(await readBody(c), schema)
}
