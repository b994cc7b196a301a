/**
 * The code login (part 1 sections 4 and 5) that e-mail and SMS configure: the code flow, and
 * what a code method does with an accepted code for each intent — log in (or sign up unless
 * the app disabled it), link the destination to the user, or replace the user's own with it —
 * then finishes the response (the kernel's `completeLogin`, or the screens' completer). The
 * method supplies its calls, its destination check (`prepare`) and its texts.
 */
import { PorticoError, type AuthResult, type Intent, type PluginContext, type Store, type User, type WireAuthResponse, type WireUser } from 'portico'
import { createCodeFlow, type CodeFlow, type CodeFlowOptions, type CodeFlowState, type CodeTexts, type SendOptions } from './flow'

/** What a code method's server calls answer: a session, or (link, update) the user alone. */
export type CodeLoginResponse = WireAuthResponse | { user: WireUser }

/**
 * How a successful response is finished. The default stores it in the kernel (login:
 * `completeLogin`; link and update: the new user record); screens pass the UI's
 * `useCompleteLogin()` so the modal closes after the success delay.
 */
export type CodeLoginCompleter<R extends CodeLoginResponse = CodeLoginResponse, M extends string = string> = (
  response: R,
  meta: { method: M; intent: Intent },
) => Promise<{ user: User; isNewUser?: boolean } | null>

/** What a submit may carry besides the code: the completer, the sign-up rule, and a call once the code is accepted. */
export interface CodeLoginSubmit<R extends CodeLoginResponse, M extends string = string> {
  complete?: CodeLoginCompleter<R, M>
  /** Called once the server accepted the code, before the response is finished (the code screen's boxes turn green). */
  verified?: () => void
  /** Existing users only ('no-signup'); default: the method's option. */
  disableSignup?: boolean
}

export interface CodeLoginOptions<R extends CodeLoginResponse, S extends SendOptions, M extends string = string> {
  ctx: Pick<PluginContext, 'session' | 'completeLogin' | 'assertLoggedOut'>
  store: Store<CodeFlowState>
  /** The login method ('email', 'sms'): the completer's `meta.method`. */
  method: M
  /** The method's texts with the app's overrides: the code rule's and 'must be authenticated'. */
  texts(): Pick<CodeTexts, 'codeNumeric' | 'codeLength'> & { mustBeAuthenticated: string; mustBeAuthenticatedToUpdate?: string }
  /** Check and normalise a destination for an intent (throw to refuse). */
  prepare?: CodeFlowOptions<AuthResult, S>['prepare']
  /** Send a code. */
  send: CodeFlowOptions<AuthResult, S>['send']
  calls: {
    login(destination: string, code: string, mode: 'no-signup' | 'login-or-sign-up'): Promise<R>
    link(destination: string, code: string): Promise<R>
    /** Replace the user's `current` destination with the one the code went to. */
    update(current: string, destination: string, code: string): Promise<R>
  }
  /** The user's own destination (their address, their number), replaced by an update. */
  current(user: User): string | undefined
  /** The refusal when the user has none to replace. */
  nothingToUpdate(): PorticoError
  /** The method's sign-up option (read at each submit). */
  disableSignup(): boolean | undefined
  /** A submitted code's failure as the method reports it (e-mail: a wrong code in its own words). */
  failure?(error: unknown): unknown
}

export interface CodeLogin<R extends CodeLoginResponse, S extends SendOptions, M extends string = string> {
  flow: CodeFlow<AuthResult, S, CodeLoginSubmit<R, M>>
  /** The logged-in user, or 'must be authenticated' (with this message). */
  requireUser(message?: string): User
  /** Store a user record answered by link, update, unlink or transfer (with a new session when it carries one). */
  applyUser(response: CodeLoginResponse): User
  /** Submit a code for an intent (default: the one it was sent for), to the given destination (default: the one it was sent to). */
  submit(code: string, options?: CodeLoginSubmit<R, M> & { intent?: Intent; destination?: string }): Promise<AuthResult>
  login(code: string, destination?: string, options?: CodeLoginSubmit<R, M>): Promise<AuthResult>
  link(code: string, destination?: string, options?: CodeLoginSubmit<R, M>): Promise<User>
  update(code: string, destination?: string, options?: CodeLoginSubmit<R, M>): Promise<User>
  /** Send again to the same destination for the same intent (after the 30 s cooldown). */
  resend(token?: string): Promise<void>
}

export function createCodeLogin<R extends CodeLoginResponse, S extends SendOptions = SendOptions, M extends string = string>(o: CodeLoginOptions<R, S, M>): CodeLogin<R, S, M> {
  const { ctx } = o
  const requireUser = (message = o.texts().mustBeAuthenticated) => {
    if (!ctx.session.authenticated || !ctx.session.user) throw new PorticoError('must_be_authenticated', message)
    return ctx.session.user
  }
  const applyUser = (res: CodeLoginResponse): User => {
    const full = res as Partial<WireAuthResponse>
    if (!full.token && !full.refresh_token) return ctx.session.setUser(res.user)
    const r = ctx.session.apply(res as WireAuthResponse)
    if (!r) throw new PorticoError('missing_or_invalid_token', 'The server ended the session.')
    return r.user
  }
  const finish = async (res: R, intent: Intent, { complete, verified }: CodeLoginSubmit<R, M>): Promise<AuthResult> => {
    verified?.()
    const meta = { method: o.method, intent }
    if (intent === 'login') {
      const done = complete ? await complete(res, meta) : await ctx.completeLogin(res as WireAuthResponse, meta)
      return { user: done?.user ?? ctx.session.user!, isNewUser: done?.isNewUser ?? (res as WireAuthResponse).is_new_user === true }
    }
    const user = complete ? ((await complete(res, meta))?.user ?? applyUser(res)) : applyUser(res)
    return { user, isNewUser: false }
  }

  const flow = createCodeFlow<AuthResult, S, CodeLoginSubmit<R, M>>({
    store: o.store,
    texts: () => {
      const t = o.texts()
      return { codeNumeric: t.codeNumeric, codeLength: t.codeLength }
    },
    prepare: o.prepare,
    send: o.send,
    async verify(code, { destination, intent, disableSignup, ...s }) {
      try {
        if (intent === 'link') {
          requireUser()
          return await finish(await o.calls.link(destination, code), intent, s)
        }
        if (intent === 'update') {
          const t = o.texts()
          const current = o.current(requireUser(t.mustBeAuthenticatedToUpdate ?? t.mustBeAuthenticated))
          if (!current) throw o.nothingToUpdate()
          return await finish(await o.calls.update(current, destination, code), intent, s)
        }
        ctx.assertLoggedOut()
        const mode = (disableSignup ?? o.disableSignup()) ? 'no-signup' : 'login-or-sign-up'
        return await finish(await o.calls.login(destination, code, mode), 'login', s)
      } catch (e) {
        throw o.failure ? o.failure(e) : e
      }
    },
  })

  const submit: CodeLogin<R, S, M>['submit'] = (code, options = {}) => flow.submit(code, options as never)
  return {
    flow,
    requireUser,
    applyUser,
    submit,
    login: (code, destination, options) => submit(code, { ...options, intent: 'login', destination }),
    link: async (code, destination, options) => (await submit(code, { ...options, intent: 'link', destination })).user,
    update: async (code, destination, options) => (await submit(code, { ...options, intent: 'update', destination })).user,
    resend: (token) => flow.resend((token === undefined ? {} : { token }) as Omit<S, 'intent'>),
  }
}

/** The destination under the method's own name (`email`, `phoneNumber`). */
type Named<K extends string> = { [P in K]?: string }

/** The API a code method hands out (`kernel.plugin('email')`, `kernel.plugin('sms')`): the destination goes under the method's own name. */
export interface CodeLoginApi<K extends string, C, Sub> {
  getState(): CodeFlowState
  subscribe(listener: (state: CodeFlowState) => void): () => void
  /** The state store (React: `useStore(api.state)` or `usePluginState(id)`). */
  readonly state: Store<CodeFlowState>
  /** Send the code again to the same destination for the same intent (after the 30 s cooldown). */
  resendCode(token?: string): Promise<void>
  loginWithCode(options: { code: string; disableSignup?: boolean; complete?: C } & Named<K>): Promise<AuthResult>
  linkWithCode(options: { code: string; complete?: C } & Named<K>): Promise<User>
  /** The code went to the new destination; the old one is the user's. */
  updateWithCode(options: { code: string; complete?: C } & Named<K>): Promise<User>
  /** Submit for the given intent (default: the one the code was sent with). The code screen uses this. */
  submitCode(code: string, options?: Sub): Promise<User>
  reset(): void
}

/** The code login's API with the destination named `key` (`'email'`, `'phoneNumber'`). */
export function codeLoginApi<K extends string, R extends CodeLoginResponse, S extends SendOptions, M extends string>(
  key: K,
  login: CodeLogin<R, S, M>,
  store: Store<CodeFlowState>,
): CodeLoginApi<K, CodeLoginCompleter<R, M>, CodeLoginSubmit<R, M> & { intent?: Intent } & Named<K>> {
  const { flow } = login
  /** The options without the destination, and the destination. */
  const split = (o: object) => {
    const { [key]: destination, code, ...rest } = o as Record<string, unknown>
    return [destination as string | undefined, rest as CodeLoginSubmit<R, M> & { intent?: Intent }, code as string] as const
  }
  return {
    getState: flow.getState,
    subscribe: flow.subscribe,
    state: store,
    resendCode: login.resend,
    loginWithCode: (o) => {
      const [destination, rest, code] = split(o)
      return login.login(code, destination, rest)
    },
    linkWithCode: (o) => {
      const [destination, rest, code] = split(o)
      return login.link(code, destination, rest)
    },
    updateWithCode: (o) => {
      const [destination, rest, code] = split(o)
      return login.update(code, destination, rest)
    },
    submitCode: async (code, o = {} as never) => {
      const [destination, rest] = split(o)
      return (await login.submit(code, { ...rest, destination })).user
    },
    reset: flow.reset,
  }
}
