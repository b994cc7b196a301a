/**
 * The e-mail flow, framework-free, on the shared code-entry base (`portico/kits/code`):
 * the plugin's API (`kernel.plugin('email')`, `usePlugin('email')`) that the modal's screens
 * and the headless hook share. Its state lives in the plugin's kernel store (part 1 section 4:
 * initial, sending-code, awaiting-code-input, submitting-code, done, error).
 */
import { PorticoError, toPorticoError, type AuthResult, type Intent, type PluginContext, type Store, type User, type WireAuthResponse, type WireUser } from 'portico'
import { loadCodeLogin, type CodeFlowState, type CodeLoginApi, type CodeLoginCompleter, type CodeLoginSubmit } from 'portico/kits/code'
import { authenticateEmail, initEmail, linkEmail, transferEmail, unlinkEmail, updateEmail } from './calls'
import type { EmailCheck } from './check'
import type { EMAIL_TEXTS } from './strings'

export type { EmailCheck } from './check'

/** The flow's state: `destination` is the address the code was sent to. */
export type EmailFlowState = CodeFlowState
export type { CodeFlowStatus as EmailFlowStatus } from 'portico/kits/code'

/**
 * How a successful response is finished. The default stores it in the kernel (login:
 * `completeLogin`; link and update: the new user record); screens pass the UI's
 * `useCompleteLogin()` so the modal closes after the success delay.
 */
export type EmailCompleter = CodeLoginCompleter<WireAuthResponse | { user: WireUser }, 'email'>

/** `complete`, `disableSignup` (existing users only; default: the plugin's option) and `verified`: the code login's (portico/kits/code). */
export interface EmailSubmitOptions extends CodeLoginSubmit<WireAuthResponse | { user: WireUser }, 'email'> {
  intent?: Intent
  /** The address (default: the one the code was sent to). */
  email?: string
}

/** What `kernel.plugin('email')` returns: the code login's API (portico/kits/code) with `email` for the destination, and: */
export interface EmailApi extends CodeLoginApi<'email', EmailCompleter, EmailSubmitOptions> {
  /** Validate an address as typed (the app's plus-address rule, the overridable text). */
  check(value: string): EmailCheck
  /**
   * The plugin's texts with the app's overrides (`texts: { email: {...} }`), as the modal's
   * screens show them; read at each render (a component re-renders with `usePlugin`).
   */
  texts(): typeof EMAIL_TEXTS
  /** The inline message of a failed code (part 1 section 8), in the app's texts. */
  codeErrorMessage(error: unknown): string
  /** Send a code (POST /passwordless/init); intent 'login' refuses while a non-guest is logged in. */
  sendCode(options: { email: string; intent?: Intent; token?: string }): Promise<void>
  /** POST /passwordless/unlink {address} (default: the user's address). */
  unlink(address?: string): Promise<User>
  /** POST /passwordless/transfer {nonce, email}. */
  transfer(options: { nonce: string; email: string }): Promise<User>
}

/** What the flow needs of the plugin context (read live: `config` changes once the server answers). */
type FlowContext = Pick<PluginContext, 'api' | 'session' | 'completeLogin' | 'config' | 'assertLoggedOut' | 'texts'>

/**
 * What the entry hands the flow: the synchronous part of the API (texts, address check, code
 * messages; in the page's first load) and the sign-up option. The flow imports none of those
 * modules, so that they stay in the entry's own chunk instead of one shared with this lazy one.
 */
export type EmailShared = Pick<EmailApi, 'texts' | 'check' | 'codeErrorMessage'> & {
  /** The plugin's `disableSignup` option (host options merged with `config.extra.email`). */
  disableSignup(): boolean | undefined
}

export async function createEmailFlow(ctx: FlowContext, store: Store<EmailFlowState>, shared: EmailShared): Promise<EmailApi> {
  const t = shared.texts
  const { codeLoginApi, createCodeLogin } = await loadCodeLogin()
  const login = createCodeLogin<WireAuthResponse | { user: WireUser }, { intent?: Intent; token?: string }, 'email'>({
    ctx,
    store,
    method: 'email',
    texts: t,
    prepare(raw, { intent }) {
      const address = String(raw ?? '').trim()
      const check = shared.check(address)
      if (!check.valid) throw new PorticoError(check.error ? 'disallowed_plus_email' : 'invalid_data', check.error ?? t().invalidEmail)
      if (intent === 'login') ctx.assertLoggedOut()
      else if (intent === 'update') {
        if (!login.requireUser(t().mustBeAuthenticatedToUpdate).email) throw new PorticoError('failed_to_update_account', t().updateRequiresEmail)
      } else login.requireUser()
      return address
    },
    send: (address, { token }) => initEmail(ctx.api, address, token),
    calls: {
      login: (email, code, mode) => authenticateEmail(ctx.api, { email, code, mode }),
      link: (email, code) => linkEmail(ctx.api, { email, code }),
      update: (oldAddress, newAddress, code) => updateEmail(ctx.api, { oldAddress, newAddress, code }),
    },
    current: (user) => user.email?.address,
    nothingToUpdate: () => new PorticoError('failed_to_update_account', t().updateRequiresEmail),
    disableSignup: shared.disableSignup,
    // A wrong code rejects with the spec's text (headless callers show `error.message`).
    failure(e) {
      const err = toPorticoError(e)
      if (err.code !== 'invalid_credentials') return err
      return new PorticoError(err.code, t().invalidCode, { cause: err, kind: err.kind, status: err.status, data: err.data })
    },
  })
  const { flow } = login

  return {
    ...codeLoginApi('email', login, store),
    check: shared.check,
    texts: t,
    codeErrorMessage: shared.codeErrorMessage,
    sendCode: ({ email, ...options }) => flow.send(email, options),
    async unlink(address) {
      const target = address ?? ctx.session.user?.email?.address
      if (!target) throw new PorticoError('invalid_data', t().noEmailToUnlink)
      return login.applyUser(await unlinkEmail(ctx.api, target))
    },
    async transfer({ nonce, email }) {
      login.requireUser()
      return login.applyUser(await transferEmail(ctx.api, { nonce, email }))
    },
  }
}
