/**
 * MFA verification, framework-free (spec part 2 sections 4 'MFA verification', 5, 9): one
 * pending verification at a time (sensitive actions asked together share it), the first of
 * the user's methods preselected and initialised, codes checked (6 digits, numeric,
 * whitespace stripped), 4 invalid codes then 'Max MFA verification attempts reached', a
 * 300 000 ms wait limit ('Timed out waiting for MFA code'), cancel ('MFA canceled'). The
 * state lives in the plugin's kernel store; the 'mfa-verify' screen draws it, or a headless
 * app registers a listener and supplies the code itself.
 */
import { PorticoError, toPorticoError, type PluginContext, type Store, type User, type WireUser } from 'portico'
import { initPasskeyVerification, initSmsVerification, unenrollMfa, verifyMfaCode, verifyMfaPasskey, type MfaType } from './calls'
import { MFA_ERRORS, hasCode, mfaError } from './errors'
import { MFA_TEXTS } from './strings'

/** Part 2 section 9. */
export const MFA_CODE_LENGTH = 6
export const MFA_MAX_ATTEMPTS = 4
export const MFA_CODE_WAIT_MS = 300_000
/** The MFA methods of part 2 section 9, in the order the method list shows them. */
export const MFA_METHOD_TYPES: readonly MfaType[] = ['totp', 'sms', 'passkey']
/**
 * A verification this recent lets the user add or remove methods without verifying again
 * (the server accepts one for 300 s; the client asks again a minute earlier).
 */
export const MFA_FRESH_MS = 240_000

export const MFA_SCREENS = {
  intro: 'mfa-intro',
  methods: 'mfa-methods',
  verify: 'mfa-verify',
  remove: 'mfa-remove',
  success: 'mfa-success',
} as const

/** The enrolment screen a method plugin registers (`mfa-totp`, `mfa-sms`, `mfa-passkey`): its plugin id. */
export const methodPluginId = (type: MfaType) => `mfa-${type}`

export type MfaVerifyStatus = 'idle' | 'initializing' | 'awaiting-code' | 'submitting' | 'verifying-passkey' | 'success' | 'error'

export interface MfaState {
  /** A sensitive action (or a method change) waits for this verification. */
  pending: boolean
  /** Why: before a wallet action, or before adding or removing a method. */
  reason: 'action' | 'change' | null
  /** The user's methods for this verification (the first is preselected). */
  methods: MfaType[]
  method: MfaType | null
  status: MfaVerifyStatus
  /** Invalid codes so far in this verification. */
  attempts: number
  /** The inline message (invalid code, a code rule, something went wrong). */
  error: string | null
  /** A blocking error disables input: max attempts or the time limit. */
  blocking: 'max_attempts' | 'timeout' | null
  /** When this browser last verified (ms), for method changes. */
  lastVerifiedAt: number | null
}

export const INITIAL_MFA_STATE: MfaState = Object.freeze({
  pending: false,
  reason: null,
  methods: [],
  method: null,
  status: 'idle',
  attempts: 0,
  error: null,
  blocking: null,
  lastVerifiedAt: null,
}) as MfaState

/**
 * Normalise a typed or pasted MFA code (part 2 section 5): whitespace stripped; anything
 * but digits 'Passcode can only be numbers'; not exactly 6 'Passcode must be exactly 6
 * numbers'. Codes must be strings.
 */
export function validateMfaCode(raw: unknown, T: Pick<typeof MFA_TEXTS, 'codeNumeric' | 'codeLength'> = MFA_TEXTS): string {
  if (typeof raw !== 'string') throw new PorticoError('invalid_data', T.codeNumeric)
  const code = raw.replace(/\s+/g, '')
  if (!/^\d*$/.test(code)) throw new PorticoError('invalid_data', T.codeNumeric)
  if (code.length !== MFA_CODE_LENGTH) throw new PorticoError('invalid_data', T.codeLength)
  return code
}

/** A headless app's listener: called when a verification is needed (then `init` / `submit`). */
export interface MfaListener {
  onMfaRequired(methods: MfaType[]): void
}

export interface MfaSettings {
  /** Called when the user enrolled a method (the app's enrolment success callback). */
  onEnrollmentSuccess?: (event: { method: MfaType }) => void
  /** Load @simplewebauthn/browser (tests hand in their own). */
  loadWebAuthn?: () => Promise<{ startAuthentication(o: { optionsJSON: never }): Promise<unknown> }>
  /** Clock and timers (tests). */
  now?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (t: unknown) => void
}

/** What `kernel.plugin('mfa')` / `usePlugin('mfa')` return. */
export interface MfaApi {
  readonly store: Store<MfaState>
  /** The logged-in user's methods, in the server's order. */
  methods(): MfaType[]
  /**
   * Verify the user's identity when they have a method (else resolves at once): the
   * 'Verify your identity' screen, or the registered listener. Rejects with `mfa_canceled`,
   * `mfa_verification_max_attempts_reached` or `mfa_timeout`.
   */
  verify(options?: { reason?: 'action' | 'change' }): Promise<void>
  /** Before adding or removing a method: verifies unless the user has none or verified recently. */
  requireFresh(): Promise<void>
  /** Select a method and initialise it (SMS sends a code; passkey runs and submits by itself). */
  init(type: MfaType): Promise<void>
  /** Submit a code for the selected (or given) method. */
  submit(type: MfaType, code: string): Promise<void>
  /** Cancel the pending verification ('MFA canceled'). */
  cancel(): void
  /** Headless: take verifications instead of the screen; returns the unregister function. */
  registerListener(listener: MfaListener): () => void
  /** Remove a method (asks for a verification first when needed). */
  unenroll(type: MfaType): Promise<User>
  /** Method plugins report an enrolment: stores the user, fires the app's callback. */
  enrolled(type: MfaType, response: { user: WireUser }, options?: { verified?: boolean }): User
  /** Open the enrolment modal: the intro when the user has no method, else the method list. */
  showEnrollment(): Promise<unknown>
}

type Ctx = Pick<PluginContext, 'api' | 'session' | 'screens' | 'texts' | 'warn'>

export function createMfa(ctx: Ctx, store: Store<MfaState>, settings: MfaSettings = {}): MfaApi {
  const T = () => ctx.texts(MFA_TEXTS)
  const now = settings.now ?? (() => Date.now())
  const setTimer = settings.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = settings.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>))
  const loadWebAuthn = settings.loadWebAuthn ?? (() => import('@simplewebauthn/browser') as never)
  let listener: MfaListener | null = null
  let pending: { promise: Promise<void>; resolve(): void; reject(e: PorticoError): void; timer: unknown } | null = null
  let watching: (() => void) | null = null

  const methods = (): MfaType[] => (ctx.session.user?.mfaMethods ?? []).map((m) => m.type).filter((t) => MFA_METHOD_TYPES.includes(t))

  const settle = (error?: PorticoError) => {
    const p = pending
    pending = null
    watching?.()
    watching = null
    if (!p) return
    clearTimer(p.timer)
    store.set({ pending: false })
    if (error) p.reject(error)
    else p.resolve()
  }

  const block = (kind: 'max_attempts' | 'timeout') => {
    const t = T()
    store.set({ blocking: kind, status: 'error', error: kind === 'max_attempts' ? t.maxAttemptsBlocking : t.timeLimitBlocking })
    settle(kind === 'max_attempts' ? mfaError(MFA_ERRORS.maxAttempts, t.maxAttempts) : mfaError(MFA_ERRORS.timeout, t.timedOut))
  }

  /** Leave the verify screen after success: back to the screen below, or close the modal. */
  const leaveScreen = () => {
    const nav = ctx.screens.getState()
    if (!nav.open || nav.current?.id !== MFA_SCREENS.verify) return
    if (nav.stack.length > 1) ctx.screens.back()
    else ctx.screens.close({ verified: true })
  }

  const succeed = () => {
    store.set({ status: 'success', error: null, blocking: null, lastVerifiedAt: now() })
    settle()
    leaveScreen()
  }

  /** A failed verification call: invalid codes count toward the 4 attempts. */
  const failed = (type: MfaType, e: unknown): never => {
    const err = toPorticoError(e)
    const t = T()
    if (hasCode(err, MFA_ERRORS.maxAttempts)) {
      block('max_attempts')
    } else if (hasCode(err, MFA_ERRORS.invalid, 'invalid_credentials')) {
      const attempts = store.get().attempts + 1
      store.set({ attempts })
      if (attempts >= MFA_MAX_ATTEMPTS) block('max_attempts')
      else store.set({ status: type === 'passkey' ? 'error' : 'awaiting-code', error: type === 'passkey' ? t.passkeyError : t.invalidCodeInline })
    } else {
      store.set({ status: 'error', error: type === 'passkey' ? t.passkeyError : t.verificationError })
    }
    throw err
  }

  const guard = (type: MfaType) => {
    const s = store.get()
    if (s.blocking) throw mfaError(s.blocking === 'timeout' ? MFA_ERRORS.timeout : MFA_ERRORS.maxAttempts, s.blocking === 'timeout' ? T().timedOut : T().maxAttempts)
    if (!MFA_METHOD_TYPES.includes(type)) throw mfaError(MFA_ERRORS.unsupported, T().unsupportedMethod)
  }

  async function runPasskey() {
    store.set({ method: 'passkey', status: 'verifying-passkey', error: null })
    let body: { relying_party: string; challenge: string; authenticator_response: unknown }
    try {
      const [lib, init] = await Promise.all([loadWebAuthn(), initPasskeyVerification(ctx.api)])
      const response = await lib.startAuthentication({ optionsJSON: init.options as never })
      body = { relying_party: init.relying_party, challenge: init.options.challenge, authenticator_response: response }
    } catch (e) {
      // The dialogue was closed or failed: not an attempt; 'Try again' runs it again.
      store.set({ status: 'error', error: T().passkeyError })
      throw toPorticoError(e)
    }
    try {
      await verifyMfaPasskey(ctx.api, body)
    } catch (e) {
      return failed('passkey', e)
    }
    succeed()
  }

  async function initOnce(type: MfaType): Promise<void> {
    guard(type)
    if (type === 'passkey') return runPasskey()
    store.set({ method: type, error: null, status: type === 'sms' ? 'initializing' : 'awaiting-code' })
    if (type === 'sms') {
      try {
        await initSmsVerification(ctx.api)
      } catch (e) {
        // Inside the 30 s resend cooldown the code sent last is still good: wait for it.
        if (hasCode(e, 'too_many_requests')) return void store.set({ status: 'awaiting-code' })
        store.set({ status: 'error', error: T().verificationError })
        throw toPorticoError(e)
      }
      store.set({ status: 'awaiting-code' })
    }
  }

  let initFlight: { type: MfaType; promise: Promise<void> } | null = null

  const api: MfaApi = {
    store,
    methods,

    verify(options = {}) {
      const list = methods()
      if (!list.length) return Promise.resolve()
      if (pending) return pending.promise
      let resolve!: () => void
      let reject!: (e: PorticoError) => void
      const promise = new Promise<void>((res, rej) => {
        resolve = res
        reject = rej
      })
      pending = { promise, resolve, reject, timer: setTimer(() => block('timeout'), MFA_CODE_WAIT_MS) }
      store.set({ pending: true, reason: options.reason ?? 'action', methods: list, method: null, status: 'idle', attempts: 0, error: null, blocking: null })
      if (listener) {
        listener.onMfaRequired(list)
      } else if (ctx.screens.has(MFA_SCREENS.verify)) {
        const flow = ctx.screens.open(MFA_SCREENS.verify, {})
        let seen = false
        // The user left the screen (closed the modal, went back): the verification is canceled.
        const stop = ctx.screens.subscribe((nav) => {
          const here = nav.open && nav.stack.some((s) => s.id === MFA_SCREENS.verify)
          if (here) seen = true
          else if (seen && pending?.promise === promise) api.cancel()
        })
        watching = stop
        void flow.then((r) => {
          if (!r.ok && pending?.promise === promise) api.cancel()
        })
      } else {
        settle(mfaError(MFA_ERRORS.unsupported, T().unsupportedMethod))
      }
      return promise
    },

    async requireFresh() {
      if (!methods().length) return
      const last = store.get().lastVerifiedAt
      if (last !== null && now() - last < MFA_FRESH_MS) return
      await api.verify({ reason: 'change' })
    },

    init(type) {
      // One initialisation at a time per method (a double click, a remounted screen).
      if (initFlight?.type === type) return initFlight.promise
      const promise = initOnce(type).finally(() => {
        if (initFlight?.promise === promise) initFlight = null
      })
      initFlight = { type, promise }
      return promise
    },

    async submit(type, code) {
      guard(type)
      if (type === 'passkey') return runPasskey()
      let c: string
      try {
        c = validateMfaCode(code, T())
      } catch (e) {
        store.set({ error: (e as Error).message })
        throw e
      }
      store.set({ method: type, status: 'submitting', error: null })
      try {
        await verifyMfaCode(ctx.api, type, c)
      } catch (e) {
        return failed(type, e)
      }
      succeed()
    },

    cancel() {
      if (!pending) return
      store.set({ status: 'idle', error: null })
      settle(mfaError(MFA_ERRORS.canceled, T().mfaCanceled))
    },

    registerListener(l) {
      listener = l
      return () => {
        if (listener === l) listener = null
      }
    },

    async unenroll(type) {
      if (!ctx.session.user) throw mfaError('must_be_authenticated', T().mustBeAuthenticated)
      await api.requireFresh()
      const res = await unenrollMfa(ctx.api, type)
      return ctx.session.setUser(res.user)
    },

    enrolled(type, response, options = {}) {
      const user = ctx.session.setUser(response.user)
      if (options.verified !== false) store.set({ lastVerifiedAt: now() })
      try {
        settings.onEnrollmentSuccess?.({ method: type })
      } catch (e) {
        ctx.warn(`mfa: onEnrollmentSuccess threw: ${(e as Error)?.message ?? e}`)
      }
      return user
    },

    showEnrollment() {
      if (!ctx.session.user) return Promise.reject(mfaError('must_be_authenticated', T().mustBeAuthenticated))
      return ctx.screens.open(methods().length ? MFA_SCREENS.methods : MFA_SCREENS.intro, {})
    },
  }
  return api
}
