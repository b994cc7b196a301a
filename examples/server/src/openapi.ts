import { z } from 'zod'
import type { Api, C } from './context'
import { body } from './validate'

/** One documented route: its body schema is both the validator and the OpenAPI request body. */
export interface RouteDoc {
  method: 'get' | 'post'
  /** Path under /api/v1, Hono style (`/apps/:appId`). */
  path: string
  summary: string
  /** 'bearer': needs an access token; 'optional': a guest's bearer upgrades the guest. */
  auth?: 'bearer' | 'optional'
  body?: z.ZodObject
}

export class Routes {
  readonly list: RouteDoc[] = []

  post<S extends z.ZodObject>(
    api: Api,
    path: string,
    doc: { summary: string; auth?: 'bearer' | 'optional' },
    schema: S,
    handler: (c: C, b: z.infer<S>) => Promise<Response> | Response,
  ) {
    this.list.push({ method: 'post', path, body: schema, ...doc })
    api.post(path, async (c) => handler(c, await body(c, schema)))
  }

  get(api: Api, path: string, doc: { summary: string; auth?: 'bearer' }, handler: (c: C) => Promise<Response> | Response) {
    this.list.push({ method: 'get', path, ...doc })
    api.get(path, handler)
  }

  /** OpenAPI 3.1 document of the /api/v1 routes (schemas from zod). */
  openapi(version: string) {
    const paths: Record<string, Record<string, unknown>> = {}
    for (const r of this.list) {
      const p = `/api/v1${r.path.replace(/:(\w+)/g, '{$1}')}`
      const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
      paths[p] ??= {}
      paths[p][r.method] = {
        summary: r.summary,
        parameters: [
          { name: 'privy-app-id', in: 'header', required: !r.path.startsWith('/apps/'), schema: { type: 'string', minLength: 25, maxLength: 25 } },
          ...params,
        ],
        ...(r.auth ? { security: r.auth === 'bearer' ? [{ bearer: [] }] : [{}, { bearer: [] }] } : {}),
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
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
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
