import type { Store } from './store'
import { now } from './tokens'

export interface DeliverySettings {
  dev: boolean
  smtpUrl?: string
  mailFrom?: string
  /** Print codes to the console in development mode (default true). */
  log?: boolean
}

let transport: { sendMail(o: Record<string, unknown>): Promise<unknown> } | undefined

/** Sends a code: console + dev outbox in development mode; SMTP for e-mail when SMTP_URL is set. */
export async function deliverCode(
  store: Store,
  s: DeliverySettings,
  p: { appId: string; appName: string; channel: 'email' | 'sms'; to: string; code: string },
): Promise<void> {
  if (s.dev) {
    if (s.log !== false) console.log(`[portico] code for ${p.to}: ${p.code}`)
    await store.query('INSERT INTO outbox (app_id, channel, to_addr, code, sent_at) VALUES ($1, $2, $3, $4, $5)', [
      p.appId,
      p.channel,
      p.to,
      p.code,
      now(),
    ])
  }
  if (p.channel === 'email' && s.smtpUrl) {
    if (!transport) {
      const nodemailer = await import('nodemailer')
      transport = nodemailer.createTransport(s.smtpUrl) as any
    }
    await transport!.sendMail({
      from: s.mailFrom ?? 'Portico <no-reply@localhost>',
      to: p.to,
      subject: `Your ${p.appName} login code: ${p.code}`,
      text: `Your ${p.appName} login code is ${p.code}. It expires in 10 minutes.`,
    })
  } else if (!s.dev) {
    console.warn(`[portico] no ${p.channel} delivery configured; code for ${p.to} not sent`)
  }
}
