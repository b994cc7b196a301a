/**
 * apps.json `webhooks` (issue 32): an app's webhook endpoints until the admin API manages them.
 *
 * ```json
 * "webhooks": [{ "url": "https://api.example.com/portico-webhooks", "events": ["user.created", "user.authenticated"], "secretEnv": "MY_APP_WEBHOOK_SECRET" }]
 * ```
 *
 * `secret` (a Standard Webhooks secret, `whsec_` + base64 of 24 to 64 random bytes) inline, or
 * `secretEnv`: the environment variable holding it. Seeded into the database at start-up
 * (features/webhooks/service.ts `seedConfigEndpoints`): one endpoint per app and URL, updated
 * when the file changes, disabled when it leaves the file.
 */
import { z } from 'zod'
import { WEBHOOK_EVENTS } from './core/events'

/** A Standard Webhooks signing secret: whsec_ and base64 of 24 to 64 bytes. */
export const WEBHOOK_SECRET = /^whsec_(?=[A-Za-z0-9+/]*={0,2}$)[A-Za-z0-9+/=]{32,88}$/
export const WEBHOOK_SECRET_MSG = 'must be whsec_ followed by the base64 of 24 to 64 random bytes (e.g. "whsec_" + openssl rand -base64 32)'

export const webhookUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .pipe(z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }))

export const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS, { message: `must be one of ${WEBHOOK_EVENTS.join(', ')}` }))
  .min(1, 'must name at least one event')
  .max(WEBHOOK_EVENTS.length)
  .refine((e) => new Set(e).size === e.length, 'must not name an event twice')

export const webhooksSchema = z
  .array(
    z
      .object({
        url: webhookUrl,
        events: webhookEvents,
        secret: z.string().regex(WEBHOOK_SECRET, WEBHOOK_SECRET_MSG).optional(),
        secretEnv: z.string().regex(/^[A-Z_][A-Z0-9_]{0,127}$/, 'must be an environment variable name').optional(),
        enabled: z.boolean().optional(),
      })
      .strict()
      .refine((w) => !!w.secret !== !!w.secretEnv, { message: 'give the signing secret as exactly one of secret or secretEnv', path: ['secret'] }),
  )
  .max(20, 'at most 20 webhook endpoints per app')
  .refine((l) => new Set(l.map((w) => w.url)).size === l.length, 'two endpoints with the same url')
  .nullish()

export type WebhookConfig = NonNullable<z.infer<typeof webhooksSchema>>[number]
