/**
 * The SMS flow, framework-free, on the shared code-entry base (`portico/kits/code`): the
 * plugin's API (`kernel.plugin('sms')`, `usePlugin('sms')`) that the screens and the headless
 * hook share. Its state lives in the plugin's kernel store; states follow part 1 section 4
 * (initial, sending-code, awaiting-code-input, submitting-code, done, error).
 */
import { PorticoError, type AuthResult, type Intent, type PluginContext, type Store, type User, type WireAuthResponse } from 'portico'
import { loadCodeLogin, type CodeFlowState, type CodeLoginApi, type CodeLoginCompleter, type CodeLoginSubmit } from 'portico/kits/code'
import { authenticateSms, initSms, linkSms, transferSms, unlinkSms, updateSms } from './calls'
import { SMS_TEXTS } from './strings'

/** The flow's state: `destination` is the E.164 number the code was sent to. */
export type SmsState = CodeFlowState
export type { CodeFlowStatus as SmsStatus } from 'portico/kits/code'

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
export type Completer = CodeLoginCompleter<WireAuthResponse, 'sms'>

/** `complete`, `disableSignup` and `verified`: the code login's (portico/kits/code). */
export interface SubmitOptions extends CodeLoginSubmit<WireAuthResponse, 'sms'> {
  intent?: Intent
}

/** What `kernel.plugin('sms')` returns: the code login's API (portico/kits/code) with `phoneNumber` for the destination, and: */
export interface SmsApi extends CodeLoginApi<'phoneNumber', Completer, SubmitOptions> {
  sendCode(options: SendCodeOptions): Promise<void>
  unlink(phoneNumber?: string): Promise<User>
  transfer(options: { nonce: string; phoneNumber: string }): Promise<User>
}

/** Loads the E.164 converter (libphonenumber-js) once, in its own chunk. */
export const loadE164 = (): Promise<typeof import('./e164')> => import('./e164')

/** What the flow needs of the plugin context (read live: `config` changes once the server answers). */
type FlowContext = Pick<PluginContext, 'api' | 'session' | 'completeLogin' | 'config' | 'assertLoggedOut' | 'texts'>

export async function createSmsFlow(ctx: FlowContext, store: Store<SmsState>, defaults: { disableSignup?: boolean } = {}): Promise<SmsApi> {
  const t = () => ctx.texts(SMS_TEXTS)
  const { codeLoginApi, createCodeLogin } = await loadCodeLogin()
  const login = createCodeLogin<WireAuthResponse, Omit<SendCodeOptions, 'phoneNumber'>, 'sms'>({
    ctx,
    store,
    method: 'sms',
    texts: t,
    async prepare(number, { intent, country }) {
      if (intent === 'login') ctx.assertLoggedOut()
      else if (intent === 'update') {
        if (!login.requireUser().phone) throw new PorticoError('invalid_data', t().needPhoneToUpdate)
      } else if (intent === 'link' && login.requireUser().phone) {
        throw new PorticoError('cannot_link_more_of_type', t().cannotLinkMore)
      }
      const defaultCountry = country ?? ctx.config.intl.defaultCountry
      return (await loadE164()).toE164Sync(number, defaultCountry, t().invalidPhone)
    },
    send: (number, { token }) => initSms(ctx.api, number, token),
    calls: {
      login: (number, code, mode) => authenticateSms(ctx.api, number, code, mode),
      link: (number, code) => linkSms(ctx.api, number, code),
      update: (old, number, code) => updateSms(ctx.api, old, number, code),
    },
    current: (user) => user.phone?.number,
    nothingToUpdate: () => new PorticoError('invalid_data', t().needPhoneToUpdate),
    disableSignup: () => defaults.disableSignup,
  })
  const { flow } = login

  const api: SmsApi = {
    ...codeLoginApi('phoneNumber', login, store),
    sendCode: ({ phoneNumber, ...options }) => flow.send(phoneNumber, options),
    async unlink(phoneNumber) {
      const n = phoneNumber ?? ctx.session.user?.phone?.number
      if (!n) throw new PorticoError('invalid_data', t().noPhoneToUnlink)
      login.requireUser()
      return login.applyUser(await unlinkSms(ctx.api, n))
    },
    async transfer({ nonce, phoneNumber }) {
      login.requireUser()
      return login.applyUser(await transferSms(ctx.api, nonce, phoneNumber))
    },
  }
  return api
}
