/**
 * MFA verification, framework-free (spec part 2 sections 4 'MFA verification', 5, 9): one
 * pending verification at a time (sensitive actions asked together share it), the first of
 * the user's methods preselected and initialised, codes checked (6 digits, numeric,
 * whitespace stripped), 4 invalid codes then 'Max MFA verification attempts reached', a
 * 300 000 ms wait limit ('Timed out waiting for MFA code'), cancel ('MFA canceled'). The
 * state lives in the plugin's kernel store; the 'mfa-verify' screen draws it, or a headless
 * app registers a listener and supplies the code itself.
 */
import { PorticoError, toPorticoError, type PluginContext, type Store } from 'portico'
import { MFA_ERRORS, MFA_SCREENS, mfaError, validateMfaCode, type MfaType } from 'portico/kits/mfa'
import { initPasskeyVerification, initSmsVerification, unenrollMfa, verifyMfaCode, verifyMfaPasskey } from './calls'
import { hasCode } from './errors'
import {
  MFA_CODE_WAIT_MS,
  MFA_FRESH_MS,
  MFA_MAX_ATTEMPTS,
  MFA_METHOD_TYPES,
  type MfaApi,
  type MfaListener,
  type MfaSettings,
  type MfaState,
} from './state'
import { MFA_TEXTS } from './strings'


/** What the entry's API (./index.ts) hands to the engine: everything async, and the cancel. */
export type MfaEngine = Pick<MfaApi, 'verify' | 'requireFresh' | 'init' | 'submit' | 'cancel' | 'unenroll' | 'showEnrollment'> & {
  /** The 'MFA canceled' error (a cancel while the engine loaded). */
  canceled(): PorticoError
}

type Ctx = Pick<PluginContext, 'api' | 'session' | 'screens' | 'texts' | 'warn'>

/**
 * The verification engine: one pending verification at a time, the screen or the headless
 * listener (`listener()`: the entry keeps it, so one registered before this loaded counts).
 */
export function createMfa(ctx: Ctx, store: Store<MfaState>, settings: MfaSettings = {}, listener: () => MfaListener | null = () => null): MfaEngine {
  const T = () => ctx.texts(MFA_TEXTS)
  const now = settings.now ?? (() => Date.now())
  const setTimer = settings.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = settings.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>))
  const loadWebAuthn = settings.loadWebAuthn ?? (() => import('@simplewebauthn/browser') as never)
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
    const t = now()
    store.set({ status: 'success', error: null, blocking: null, lastVerifiedAt: t, lastActionVerifiedAt: t })
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
      // A right code of a time step already used (typed again, or the enrolment's): say so.
      const used = [...PorticoError.walk(err)].some((x) => x instanceof PorticoError && x.data?.reason === 'code_already_used')
      if (attempts >= MFA_MAX_ATTEMPTS) block('max_attempts')
      else store.set({ status: type === 'passkey' ? 'error' : 'awaiting-code', error: type === 'passkey' ? t.passkeyError : used ? t.codeAlreadyUsed : t.invalidCodeInline })
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

  const api: MfaEngine = {
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
      const l = listener()
      if (l) {
        l.onMfaRequired(list)
      } else if (ctx.screens.has(MFA_SCREENS.verify)) {
        const flow = ctx.screens.open(MFA_SCREENS.verify, {})
        const shown = (nav: ReturnType<typeof ctx.screens.getState>) => nav.open && nav.stack.some((s) => s.id === MFA_SCREENS.verify)
        // Pushed into an open flow, the screen shows already: its leaving counts from now.
        let seen = shown(ctx.screens.getState())
        // The user left the screen (closed the modal, went back): the verification is canceled.
        const stop = ctx.screens.subscribe((nav) => {
          if (shown(nav)) seen = true
          else if (seen && pending?.promise === promise) api.cancel()
        })
        watching = stop
        // The flow ended (whoever closed it, with whatever result) while this still waits: no
        // screen is left to answer it, so it is canceled rather than left pending forever.
        void flow.then(() => {
          if (pending?.promise === promise) api.cancel()
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

    canceled: () => mfaError(MFA_ERRORS.canceled, T().mfaCanceled),

    cancel() {
      if (!pending) return
      store.set({ status: 'idle', error: null })
      settle(mfaError(MFA_ERRORS.canceled, T().mfaCanceled))
    },

    async unenroll(type) {
      if (!ctx.session.user) throw mfaError('must_be_authenticated', T().mustBeAuthenticated)
      await api.requireFresh()
      const res = await unenrollMfa(ctx.api, type)
      return ctx.session.setUser(res.user)
    },

    showEnrollment() {
      if (!ctx.session.user) return Promise.reject(mfaError('must_be_authenticated', T().mustBeAuthenticated))
      return ctx.screens.open(methods().length ? MFA_SCREENS.methods : MFA_SCREENS.intro, {})
    },
  }
  return api
}
