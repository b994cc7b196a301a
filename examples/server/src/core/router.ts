/**
 * A feature's routes: one declaration per route gives its path, its OpenAPI entry, its body
 * validation and who may call it. The check a route declares runs before its handler, and the
 * handler receives what the check established, so a route declared authenticated cannot run
 * without the check and no handler calls one by hand.
 *
 * ```ts
 * export function usersRoutes(ctx: ServerCtx) {
 *   const r = router(ctx)
 *   r.get('/users/me', { summary: 'The current user', auth: 'bearer' }, async (c, { auth }) => ...)
 *   return r.app // mounted by app.ts with app.route
 * }
 * ```
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppSettings } from '../config'
import { requireAppSecret, requireAuth, type Auth } from './auth'
import type { C, Env, ServerCtx } from './context'
import { body as readBody } from './validate'

/**
 * Who may call a route (`auth`):
 * - `'bearer'`: a user's access token (401 missing_or_invalid_token); the handler's `auth` is the user and session.
 * - `'link'`: the same for linking an account (no token: 401 must_be_authenticated).
 * - `'optional'`: anyone; a guest's token upgrades the guest (the handler reads it with currentGuest).
 * - `'app-secret'`: the app's backend (Basic app id and app secret); `auth` is the app.
 *
 * Or `guard`: the route's own check over the validated body (the wallet frame's device: a token
 * and a device proof); it must establish the caller, and its result is the handler's `auth`.
 */
export type AuthKind = 'bearer' | 'link' | 'optional' | 'app-secret'
export type Guard<B, R> = (c: C, body: B) => Promise<R>

type Caller<K, R> = K extends 'bearer' | 'link' ? Auth : K extends 'app-secret' ? AppSettings : R

export interface RouteDecl<S extends z.ZodObject, K extends AuthKind | undefined, R> {
  summary: string
  /** The JSON body (POST); its schema is the validator and the OpenAPI request body. Default: an empty object. */
  body?: S
  auth?: K
  guard?: Guard<z.infer<S>, R>
}

type Handler<B, W> = (c: C, input: { body: B; auth: W }) => Response | Promise<Response>

const EMPTY = z.object({})

export function router(ctx: ServerCtx) {
  const app = new Hono<Env>()

  const check = (c: C, decl: { auth?: AuthKind; guard?: Guard<never, unknown> }, b: unknown): Promise<unknown> | undefined => {
    if (decl.guard) return (decl.guard as Guard<unknown, unknown>)(c, b)
    if (decl.auth === 'bearer') return requireAuth(c, ctx)
    if (decl.auth === 'link') return requireAuth(c, ctx, { linking: true })
    if (decl.auth === 'app-secret') return requireAppSecret(c, ctx)
    return undefined
  }
  const security = (decl: { auth?: AuthKind; guard?: unknown }) =>
    decl.guard ? 'bearer' : decl.auth === undefined ? undefined : decl.auth === 'optional' ? 'optional' : decl.auth === 'app-secret' ? 'basic' : 'bearer'

  return {
    /** The feature's sub-app (app.ts mounts it under /api/v1). */
    app,
    post<S extends z.ZodObject = typeof EMPTY, const K extends AuthKind | undefined = undefined, R = undefined>(
      path: string,
      decl: RouteDecl<S, K, R>,
      handler: Handler<z.infer<S>, Caller<K, R>>,
    ) {
      const schema = decl.body ?? EMPTY
      ctx.openapi.add({ method: 'post', path, summary: decl.summary, security: security(decl), body: schema })
      app.post(path, async (c) => {
        // The body first (a malformed body answers 400/422 whoever calls), then who calls.
        const body = (await readBody(c, schema)) as z.infer<S>
        const auth = (await check(c, decl as never, body)) as Caller<K, R>
        return handler(c, { body, auth })
      })
    },
    get<const K extends AuthKind | undefined = undefined, R = undefined>(
      path: string,
      decl: Omit<RouteDecl<z.ZodObject, K, R>, 'body' | 'guard'> & { guard?: Guard<undefined, R>; query?: Record<string, string> },
      handler: Handler<undefined, Caller<K, R>>,
    ) {
      ctx.openapi.add({ method: 'get', path, summary: decl.summary, security: security(decl), query: decl.query })
      app.get(path, async (c) => {
        const auth = (await check(c, decl as never, undefined)) as Caller<K, R>
        return handler(c, { body: undefined, auth })
      })
    },
  }
}

export type Router = ReturnType<typeof router>
