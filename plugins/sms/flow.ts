/**
 * The SMS flow, framework-free: one controller per kernel that the screens and the headless
 * hook (`useLoginWithSms`) share. States follow part 1 section 4: initial, sending code,
 * awaiting input, submitting, done or error.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js'
import {
  PorticoError,
  toPorticoError,
  type AuthResult,
  type Intent,
  type PluginContext,
  type User,
  type WireAuthResponse,
} from 'portico'
import * as calls from './calls'
import { SMS_TEXTS } from './strings'

export type SmsStatus = 'initial' | 'sending-code' | 'awaiting-code-input' | 'submitting-code' | 'done' | 'error'

export interface SmsState {
  status: SmsStatus
  /** E.164 number the code was sent to. */
  phoneNumber: string | null
  intent: Intent
  error: PorticoError | null
  /** When the last code was sent (ms since the epoch), for the resend cooldown. */
  codeSentAt: number | null
}

export interface SendCodeOptions {
  phoneNumber: string
  /** Captcha token, when the app uses captcha. */
  token?: string
  /** 'login' (default), 'link' or 'update' (the code goes to the new number). */
  intent?: Intent
  /** Country used to read a national number; default config.intl.defaultCountry. */
  country?: string
}

/**
 * How a successful response is finished. The default stores it in the kernel (login:
 * `completeLogin`, link and update: the new user record); screens pass the UI's
 * `useCompleteLogin()` so the modal closes after the success delay.
 */
export type Completer = (
  response: WireAuthResponse,
  meta: { method: 'sms'; intent: Intent },
) => Promise<{ user: User; isNewUser?: boolean } | null>

export interface SubmitOptions {
  intent?: Intent
  complete?: Completer
  disableSignup?: boolean
}

export interface SmsFlow {
  getState(): SmsState
  subscribe(listener: (state: SmsState) => void): () => void
  sendCode(options: SendCodeOptions): Promise<void>
  /** Send the code again to the same number with the same intent. */
  resendCode(token?: string): Promise<void>
  loginWithCode(options: { code: string; phoneNumber?: string; disableSignup?: boolean; complete?: Completer }): Promise<AuthResult>
  linkWithCode(options: { code: string; phoneNumber?: string; complete?: Completer }): Promise<User>
  updateWithCode(options: { code: string; phoneNumber?: string; complete?: Completer }): Promise<User>
  /** Submit for the given intent (default: the one the code was sent with). The code screen uses this. */
  submitCode(code: string, options?: SubmitOptions): Promise<User>
  unlink(phoneNumber: string): Promise<User>
  transfer(options: { nonce: string; phoneNumber: string }): Promise<User>
  reset(): void
}

const INITIAL: SmsState = Object.freeze({
  status: 'initial',
  phoneNumber: null,
  intent: 'login',
  error: null,
  codeSentAt: null,
}) as SmsState

/** Codes are exactly 6 digits; whitespace is stripped (part 1 section 5). */
export function normaliseCode(code: string): string {
  const c = String(code ?? '').replace(/\s+/g, '')
  if (!/^\d+$/.test(c)) throw new PorticoError('invalid_data', SMS_TEXTS.codeNumeric)
  if (c.length !== 6) throw new PorticoError('invalid_data', 'Code should be 6 digits')
  return c
}

/** A typed number to E.164 for the given country; throws `invalid_data` when it is not valid there. */
export function toE164(value: string, country: string = 'US'): string {
  const p = parsePhoneNumberFromString(String(value ?? '').trim(), country.toUpperCase() as CountryCode)
  if (!p || !p.isValid()) throw new PorticoError('invalid_data', SMS_TEXTS.invalidPhone)
  return p.number
}

export function createSmsFlow(ctx: Pick<PluginContext, 'api' | 'session' | 'completeLogin' | 'config' | 'warn'>): SmsFlow {
  let state: SmsState = INITIAL
  const listeners = new Set<(s: SmsState) => void>()
  const set = (patch: Partial<SmsState>) => {
    state = Object.freeze({ ...state, ...patch })
    for (const l of [...listeners]) l(state)
  }
  const fail = (e: unknown): never => {
    const err = toPorticoError(e)
    set({ status: 'error', error: err })
    throw err
  }
  const requireUser = () => {
    if (!ctx.session.authenticated || !ctx.session.user) {
      throw new PorticoError('must_be_authenticated', SMS_TEXTS.mustBeAuthenticated)
    }
    return ctx.session.user
  }
  const numberFor = (given?: string) => {
    const n = given ? toE164(given, ctx.config.intl.defaultCountry) : state.phoneNumber
    if (!n) throw new PorticoError('invalid_data', SMS_TEXTS.invalidPhone)
    return n
  }
  /** Link, update, unlink and transfer answer with the user (session_update_action 'ignore'). */
  const applyUser = (res: Parameters<PluginContext['completeLogin']>[0]): User => {
    const r = ctx.session.apply(res)
    if (!r) throw new PorticoError('missing_or_invalid_token', 'The server ended the session.')
    return r.user
  }

  const flow: SmsFlow = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    async sendCode({ phoneNumber, token, intent = 'login', country }) {
      if (intent === 'login' && ctx.session.authenticated && ctx.session.user && !ctx.session.user.isGuest) {
        ctx.warn('Attempted to log in with SMS, but the user is already logged in. Use the link or update calls instead.')
        return
      }
      if (intent === 'update') {
        if (!requireUser().phone) throw new PorticoError('invalid_data', SMS_TEXTS.needPhoneToUpdate)
      } else if (intent === 'link' && requireUser().phone) {
        throw new PorticoError('cannot_link_more_of_type', SMS_TEXTS.cannotLinkMore)
      }
      const number = toE164(phoneNumber, country ?? ctx.config.intl.defaultCountry)
      set({ status: 'sending-code', phoneNumber: number, intent, error: null })
      try {
        await calls.init(ctx.api, number, token)
      } catch (e) {
        fail(e)
      }
      set({ status: 'awaiting-code-input', codeSentAt: Date.now() })
    },
    async resendCode(token) {
      if (!state.phoneNumber) throw new PorticoError('invalid_data', SMS_TEXTS.invalidPhone)
      return flow.sendCode({ phoneNumber: state.phoneNumber, token, intent: state.intent })
    },
    async loginWithCode({ code, phoneNumber, disableSignup, complete }) {
      const user = ctx.session.user
      if (ctx.session.authenticated && user && !user.isGuest) {
        ctx.warn('Attempted to log in with SMS, but the user is already logged in. Use the link or update calls instead.')
        return { user, isNewUser: false }
      }
      const number = numberFor(phoneNumber)
      const c = normaliseCode(code)
      set({ status: 'submitting-code', phoneNumber: number, error: null })
      try {
        const res = await calls.authenticate(ctx.api, number, c, disableSignup ? 'no-signup' : 'login-or-sign-up')
        const meta = { method: 'sms' as const, intent: 'login' as const }
        const done = complete ? await complete(res, meta) : await ctx.completeLogin(res, meta)
        const result = { user: done?.user ?? ctx.session.user!, isNewUser: done?.isNewUser ?? res.is_new_user === true }
        set({ status: 'done' })
        return result
      } catch (e) {
        return fail(e)
      }
    },
    async linkWithCode({ code, phoneNumber, complete }) {
      requireUser()
      const number = numberFor(phoneNumber)
      const c = normaliseCode(code)
      set({ status: 'submitting-code', phoneNumber: number, intent: 'link', error: null })
      try {
        const res = await calls.link(ctx.api, number, c)
        const u = complete ? ((await complete(res, { method: 'sms', intent: 'link' }))?.user ?? applyUser(res)) : applyUser(res)
        set({ status: 'done' })
        return u
      } catch (e) {
        return fail(e)
      }
    },
    async updateWithCode({ code, phoneNumber, complete }) {
      const old = requireUser().phone?.number
      if (!old) throw new PorticoError('invalid_data', SMS_TEXTS.needPhoneToUpdate)
      const number = numberFor(phoneNumber)
      const c = normaliseCode(code)
      set({ status: 'submitting-code', phoneNumber: number, intent: 'update', error: null })
      try {
        const res = await calls.update(ctx.api, old, number, c)
        const u = complete ? ((await complete(res, { method: 'sms', intent: 'update' }))?.user ?? applyUser(res)) : applyUser(res)
        set({ status: 'done' })
        return u
      } catch (e) {
        return fail(e)
      }
    },
    async submitCode(code, { intent = state.intent, complete, disableSignup } = {}) {
      if (intent === 'link') return flow.linkWithCode({ code, complete })
      if (intent === 'update') return flow.updateWithCode({ code, complete })
      return (await flow.loginWithCode({ code, complete, disableSignup })).user
    },
    async unlink(phoneNumber) {
      requireUser()
      return applyUser(await calls.unlink(ctx.api, phoneNumber))
    },
    async transfer({ nonce, phoneNumber }) {
      requireUser()
      return applyUser(await calls.transfer(ctx.api, nonce, phoneNumber))
    },
    reset() {
      set({ ...INITIAL })
    },
  }
  return flow
}

const flows = new WeakMap<object, SmsFlow>()

/** Register the flow of one kernel (keyed by its session object, which plugins and the kernel share). */
export function registerSmsFlow(session: object, flow: SmsFlow): () => void {
  flows.set(session, flow)
  return () => {
    if (flows.get(session) === flow) flows.delete(session)
  }
}

/** The SMS flow of a kernel; throws a message that says what to fix when sms() is not set up. */
export function smsFlow(kernel: { session: object }): SmsFlow {
  const f = flows.get(kernel.session)
  if (!f) throw new PorticoError('invalid_plugin', "The sms plugin is not set up: add sms() to config.plugins (import { sms } from 'portico/plugins/sms').")
  return f
}
