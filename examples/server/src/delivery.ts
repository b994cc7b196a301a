/**
 * Code delivery: e-mail through SMTP (nodemailer), SMS through a provider (Twilio's REST
 * API, or a generic webhook), and in development mode the dev outbox (and the console).
 * A provider failure throws `DeliveryError`: the code, already committed, is withdrawn with
 * its counts (codes.ts issueCode) and the client gets 502 delivery_failed (its retry is not
 * refused).
 */
import { connect, type Socket } from 'node:net'
import type { Logger } from 'pino'
import { ApiError } from './core/errors'
import type { Queryable } from './core/store'
import { insertOutboxNotice } from './core/repo'

export interface Message {
  appId: string
  appName: string
  channel: 'email' | 'sms'
  /** Normalised address: lower-case e-mail or E.164 phone. */
  to: string
  code: string
}

export interface SmsProvider {
  readonly name: string
  send(m: { to: string; body: string; appId: string }): Promise<void>
}
export interface EmailProvider {
  readonly name: string
  send(m: { to: string; subject: string; text: string }): Promise<void>
}

export class DeliveryError extends ApiError {
  constructor() {
    super(502, 'delivery_failed', 'We could not send the code. Please try again in a moment.')
  }
}

const TIMEOUT_MS = 10_000

/**
 * SMTP through nodemailer (SMTP_URL, MAIL_FROM). Pooled: a few connections to the relay are
 * kept open and reused (a new connection and greeting per code cost more than the message);
 * `?pool=false` in SMTP_URL opens one per message. Sockets have TCP_NODELAY: nodemailer
 * writes a command in pieces, and with Nagle's algorithm each piece after the first waited
 * for the relay's delayed ACK (about 40 ms a message on Linux; 46 -> 1.8 ms per message to a
 * loopback relay).
 */
export function smtpProvider(url: string, from = 'Portico <no-reply@localhost>'): EmailProvider {
  let transport: { sendMail(o: Record<string, unknown>): Promise<unknown> } | undefined
  return {
    name: 'smtp',
    async send(m) {
      if (!transport) {
        // The options go to the transport itself: createTransport(url, options) takes its second
        // argument as message defaults, so these (time-outs included) were never applied.
        const nodemailer = (await import('nodemailer')).default
        const options = { url, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS, getSocket: noDelaySocket }
        const Transport =
          new URL(url).searchParams.get('pool') === 'false'
            ? (await import('nodemailer/lib/smtp-transport/index.js')).default
            : (await import('nodemailer/lib/smtp-pool/index.js')).default
        transport = nodemailer.createTransport(new Transport(options as never) as never) as never
      }
      await transport!.sendMail({ from, to: m.to, subject: m.subject, text: m.text })
    },
  }
}

/**
 * nodemailer's `getSocket`: a TCP connection to the relay with TCP_NODELAY, handed over
 * connected (nodemailer still does TLS on it: smtps:// at once, smtp:// by STARTTLS).
 */
function noDelaySocket(o: { host?: string; port?: number; secure?: boolean }, cb: (err: Error | null, s?: { connection: Socket }) => void) {
  const socket = connect({ host: o.host ?? 'localhost', port: Number(o.port) || (o.secure ? 465 : 587), noDelay: true })
  const fail = (err: Error) => {
    socket.destroy()
    cb(err)
  }
  socket.setTimeout(TIMEOUT_MS, () => fail(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })))
  socket.once('error', fail)
  socket.once('connect', () => {
    socket.setTimeout(0)
    socket.off('error', fail)
    // nodemailer adds its own error listener when it takes the socket; none may be missing before.
    socket.on('error', () => {})
    cb(null, { connection: socket })
  })
}

/** Twilio Programmable Messaging: POST {api}/2010-04-01/Accounts/{sid}/Messages.json. */
export function twilioProvider(o: {
  accountSid: string
  authToken: string
  from?: string
  messagingServiceSid?: string
  apiUrl?: string
}): SmsProvider {
  const url = `${(o.apiUrl ?? 'https://api.twilio.com').replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(o.accountSid)}/Messages.json`
  const auth = `Basic ${Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64')}`
  return {
    name: 'twilio',
    async send(m) {
      const form = new URLSearchParams({ To: m.to, Body: m.body })
      if (o.messagingServiceSid) form.set('MessagingServiceSid', o.messagingServiceSid)
      else form.set('From', o.from!)
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      await res.arrayBuffer().catch(() => {})
      if (!res.ok) throw new Error(`twilio answered ${res.status}`)
    },
  }
}

/**
 * Generic webhook: POST {to, body, app_id, channel: 'sms'} as JSON to SMS_WEBHOOK_URL, with
 * `authorization: Bearer SMS_WEBHOOK_SECRET` when set. Any 2xx is success.
 */
export function webhookProvider(o: { url: string; secret?: string }): SmsProvider {
  return {
    name: 'webhook',
    async send(m) {
      const res = await fetch(o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(o.secret ? { authorization: `Bearer ${o.secret}` } : {}) },
        body: JSON.stringify({ to: m.to, body: m.body, app_id: m.appId, channel: 'sms' }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      await res.arrayBuffer().catch(() => {})
      if (!res.ok) throw new Error(`sms webhook answered ${res.status}`)
    },
  }
}

export interface Delivery {
  dev: boolean
  /** Print codes to the log in development mode (default true). */
  logCodes: boolean
  email?: EmailProvider
  sms?: SmsProvider
  log: Logger
}

/** Which channels can deliver: a provider, or the dev outbox in development mode. */
export function canDeliver(d: Pick<Delivery, 'dev' | 'email' | 'sms'>, channel: 'email' | 'sms'): boolean {
  return d.dev || !!(channel === 'email' ? d.email : d.sms)
}

/**
 * How a new code reaches `m.to` (issueCode's CodeDelivery): in development mode the outbox
 * row, written with the code, and the console; then the channel's provider, called after the
 * code has committed. The provider's failure throws DeliveryError.
 */
export function codeDelivery(d: Delivery, m: Omit<Message, 'code'>): { outboxTo?: string; send(code: string): Promise<void> } {
  return { outboxTo: d.dev ? m.to : undefined, send: (code) => deliverCode(d, { ...m, code }) }
}

/** Sends a code through the channel's provider (and the console in development mode). Throws DeliveryError. */
export async function deliverCode(d: Delivery, m: Message): Promise<void> {
  // Development mode only: the outbox (written with the code) and the console are the documented way to read codes.
  if (d.dev && d.logCodes) d.log.info({ dev_outbox: true, channel: m.channel }, `code for ${m.to}: ${m.code}`)
  const text = `Your ${m.appName} login code is ${m.code}. It expires in 10 minutes.`
  try {
    if (m.channel === 'email' && d.email) {
      await d.email.send({ to: m.to, subject: `Your ${m.appName} login code: ${m.code}`, text })
    } else if (m.channel === 'sms' && d.sms) {
      await d.sms.send({ to: m.to, body: text, appId: m.appId })
    } else if (!d.dev) {
      throw new Error(`no ${m.channel} provider`)
    }
  } catch (err) {
    // Never the address, code or provider answer: the provider and the error's class.
    d.log.error({ channel: m.channel, provider: (m.channel === 'email' ? d.email : d.sms)?.name ?? null, err_name: (err as Error)?.name }, 'code delivery failed')
    throw new DeliveryError()
  }
}

/**
 * Development mode: a notice (not a code) in the dev outbox, e.g. 'A new device was added to
 * your wallet' (`/dev/outbox?kind=notice`; the default listing stays codes only).
 */
export async function devOutboxNotice(
  q: Queryable,
  d: Pick<Delivery, 'dev'>,
  m: { appId: string; channel: 'email' | 'sms'; to: string; text: string },
): Promise<void> {
  if (!d.dev) return
  await insertOutboxNotice(q, { ...m, t: Math.floor(Date.now() / 1000) })
}
