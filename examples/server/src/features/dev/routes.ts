import { Hono } from 'hono'
import { outbox } from './repo'
import type { Env, ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { issueDevToken } from '../../dev-issuer'

interface OutboxEntry {
  to: string
  channel: 'email' | 'sms'
  code: string
  app_id: string
  sent_at: number
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** Development-only routes (not mounted in production): the code outbox and a custom-auth token issuer. */
export function devRoutes(ctx: ServerCtx) {
  const app = new Hono<Env>()
  /** Codes by default; `kind` 'notice': the notices (their text in `code`); 'all': both. */
  const list = async (to?: string, kind: string = 'code'): Promise<OutboxEntry[]> => {
    const rows = await outbox(ctx.store, to ? normaliseTo(to) : undefined, kind === 'all' ? undefined : kind === 'notice' ? 'notice' : 'code')
    return rows.map((r) => ({ to: r.to_addr, channel: r.channel, code: r.code, app_id: r.app_id, sent_at: Number(r.sent_at) }))
  }
  const html = (entries: OutboxEntry[]) =>
    `<!doctype html><meta charset="utf-8"><title>Portico dev outbox</title>
<style>body{font:14px system-ui;margin:2rem}table{border-collapse:collapse}td,th{padding:.3rem .8rem;border-bottom:1px solid #ddd;text-align:left}code{font-size:1.2em}</style>
<h1>Dev outbox</h1><p>Newest first, codes and notices. Refresh to update.</p>
<table><tr><th>To</th><th>Channel</th><th>Code</th><th>App</th><th>Sent</th></tr>
${entries
  .map(
    (e) =>
      `<tr><td>${esc(e.to)}</td><td>${e.channel}</td><td><code>${e.code}</code></td><td>${esc(e.app_id)}</td><td>${new Date(e.sent_at * 1000).toISOString()}</td></tr>`,
  )
  .join('\n')}
</table>`

  app.get('/dev/outbox', async (c) => {
    const accept = c.req.header('accept') ?? ''
    const page = accept.includes('text/html') && !accept.includes('application/json')
    const entries = await list(c.req.query('to'), c.req.query('kind') ?? (page ? 'all' : 'code'))
    return page ? c.html(html(entries)) : c.json(entries)
  })
  app.get('/dev/outbox.html', async (c) => c.html(html(await list(c.req.query('to'), c.req.query('kind') ?? 'all'))))

  app.get('/dev/custom-token', async (c) => {
    const user = c.req.query('user')
    if (!user) throw errors.invalidData('user: Required', { fields: { user: 'Required' } }, 422)
    return c.json({ token: await issueDevToken(user) })
  })
  return app
}

/**
 * `?to=` accepts an address as typed: e-mails are stored lower-case, phones as E.164 (an
 * unencoded '+' arrives as a space, so phones are rebuilt as '+' and their digits).
 */
function normaliseTo(to: string) {
  const t = to.trim()
  return t.includes('@') ? t.toLowerCase() : `+${t.replace(/\D/g, '')}`
}
