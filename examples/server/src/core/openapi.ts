import { z } from 'zod'

/** One documented route (core/router.ts adds one per declared route). */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** Path under /api/v1 (or under `base`), Hono style (`/apps/:appId`). */
  path: string
  /** The prefix of `path` when it is not /api/v1 (the admin API: /admin/v1); such routes take no app-id header. */
  base?: string
  summary: string
  /** 'bearer': needs an access token; 'optional': a guest's bearer upgrades the guest; 'basic': the app's backend. */
  security?: 'bearer' | 'optional' | 'basic' | 'admin'
  body?: z.ZodObject
  /** GET: the query parameters the handler reads (name → description), all optional here; the handler checks them. */
  query?: Record<string, string>
}

/** The OpenAPI 3.1 document of the /api/v1 routes, from what the routes declared (schemas from zod). */
export class OpenApi {
  readonly list: RouteDoc[] = []

  add(doc: RouteDoc) {
    this.list.push(doc)
  }

  document(version: string) {
    const paths: Record<string, Record<string, unknown>> = {}
    for (const r of this.list) {
      const p = `${r.base ?? '/api/v1'}${r.path.replace(/:(\w+)/g, '{$1}')}`
      const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
      paths[p] ??= {}
      paths[p][r.method] = {
        summary: r.summary,
        parameters: [
          ...(r.base ? [] : [{ name: 'privy-app-id', in: 'header', required: !r.path.startsWith('/apps/'), schema: { type: 'string', minLength: 25, maxLength: 25 } }]),
          ...params,
          ...Object.entries(r.query ?? {}).map(([name, description]) => ({ name, in: 'query', required: false, description, schema: { type: 'string' } })),
        ],
        ...(r.security ? { security: r.security === 'optional' ? [{}, { bearer: [] }] : [{ [r.security]: [] }] } : {}),
        ...(r.body
          ? { requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(r.body, { io: 'input', unrepresentable: 'any' }) } } } }
          : {}),
        responses: {
          '200': { description: 'Success (WireAuthResponse for logins; see README)' },
          '4XX': { description: 'WireError', content: { 'application/json': { schema: { $ref: '#/components/schemas/WireError' } } } },
        },
      }
    }
    return {
      openapi: '3.1.0',
      info: { title: 'Portico reference API', version },
      paths,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          basic: { type: 'http', scheme: 'basic', description: 'The app id and app secret (the app backend only)' },
          admin: { type: 'http', scheme: 'bearer', description: 'Admin API (/admin/v1): an API key portico_admin_… with the route’s scope, or an operator’s access token of the console app' },
        },
        schemas: {
          WireError: {
            type: 'object',
            required: ['code', 'error'],
            properties: { code: { type: 'string' }, error: { type: 'string' }, data: { type: 'object' } },
          },
        },
      },
    }
  }
}
