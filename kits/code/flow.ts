/**
 * portico/kits/code — the one code-entry flow (part 1 sections 4, 5 and 9) that the code
 * methods configure instead of re-implementing: e-mail and SMS login today, the MFA methods
 * (SMS, TOTP) next. A library base, not a plugin: no `setup`, no screens, no method name.
 *
 * It owns the states (initial, sending-code, awaiting-code-input, submitting-code, done,
 * error), the destination and intent a code was sent for, the 30 s resend cooldown and the
 * code rule (exactly 6 digits, whitespace stripped, numeric only). The method supplies the
 * calls; its plugin keeps the state in its `ctx.store`:
 *
 * ```ts
 * const flow = createCodeFlow({
 *   store: ctx.store(INITIAL_CODE_STATE),
 *   send: (destination, { intent, token }) => initThing(ctx.api, destination, token),
 *   verify: (code, { destination, intent }) => authenticateThing(ctx.api, destination, code),
 * })
 * ```
 *
 * `portico/ui/screens`' `CodeEntryScreen` is the matching screen body (six boxes, 'Code sent', 'Resend code').
 */
import { PorticoError, toPorticoError, type Intent, type Store } from 'portico'
// The code rule (6 digits, 30 s cooldown) is defined once, beside the code boxes that draw it.
import { CODE_LENGTH, RESEND_COOLDOWN_MS } from 'portico/ui'

/** The base's texts. A method passes its own (overridable) ones through `texts`. */
export const CODE_TEXTS = {
  /** Part 1 section 5, word for word. */
  codeNumeric: 'Code should be numeric',
  /** (ours) */
  codeLength: 'Code should be 6 digits',
  /** (ours) submitting before any code was sent, headless use. */
  sendFirst: 'Send a code first.',
  /** (ours) `resend()` inside the cooldown; `{seconds}` is filled. */
  resendWait: 'Wait {seconds}s before asking for another code.',
}

export type CodeTexts = { [K in keyof typeof CODE_TEXTS]: string }

export type CodeFlowStatus = 'initial' | 'sending-code' | 'awaiting-code-input' | 'submitting-code' | 'done' | 'error'

export interface CodeFlowState {
  status: CodeFlowStatus
  /** Where the code went, as the method normalised it (an address, an E.164 number). */
  destination: string | null
  /** What the code is for: 'login', 'link', 'update' (MFA methods may use their own). */
  intent: Intent
  error: PorticoError | null
  /** When the last code was sent (ms since the epoch), for the resend cooldown. */
  codeSentAt: number | null
}

export const INITIAL_CODE_STATE: CodeFlowState = Object.freeze({
  status: 'initial',
  destination: null,
  intent: 'login',
  error: null,
  codeSentAt: null,
}) as CodeFlowState

export interface SendOptions {
  /** Default 'login'. */
  intent?: Intent
  /** Captcha token, when the app uses captcha. */
  token?: string
}

export interface VerifyContext {
  destination: string
  intent: Intent
}

export interface CodeFlowOptions<R, S extends SendOptions = SendOptions, V extends object = object> {
  /** The plugin's store (`ctx.store(INITIAL_CODE_STATE)`); the flow keeps its state there. */
  store: Store<CodeFlowState>
  /**
   * Check and normalise a destination before anything is sent or submitted (throw to refuse:
   * not logged out, nothing to update, an invalid number ...). Default: trimmed. May answer a
   * promise (a method whose parser loads lazily, as SMS's libphonenumber-js).
   */
  prepare?(destination: string, options: S & { intent: Intent }): string | Promise<string>
  /** Send a code. */
  send(destination: string, options: S & { intent: Intent }): Promise<unknown>
  /** Check a code (already normalised: 6 digits) and finish; what it returns `submit` returns. */
  verify(code: string, context: VerifyContext & V): Promise<R>
  /** Texts for the code rule (the method's overridable ones); read at each use. */
  texts?: () => Partial<CodeTexts>
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number
}

export interface CodeFlow<R, S extends SendOptions = SendOptions, V extends object = object> {
  getState(): CodeFlowState
  subscribe(listener: (state: CodeFlowState) => void): () => void
  /** Send a code to a destination; resolves once the flow awaits the code. */
  send(destination: string, options?: S): Promise<void>
  /** Send again to the same destination for the same intent; refused inside the cooldown. */
  resend(options?: Omit<S, 'intent'>): Promise<void>
  /** Milliseconds until `resend()` is allowed (0: now). */
  resendIn(): number
  /**
   * Submit a code: normalised (whitespace stripped, numeric, exactly 6 digits), then verified
   * for the destination and intent it was sent for (or the ones given).
   */
  submit(code: string, options?: Partial<VerifyContext> & V): Promise<R>
  /** Back to 'initial'. */
  reset(): void
}

/** Normalise a typed or pasted code: whitespace stripped, digits only, exactly 6 of them. */
export function normaliseCode(code: string, texts: Partial<CodeTexts> = CODE_TEXTS): string {
  const c = String(code ?? '').replace(/\s+/g, '')
  if (!/^\d*$/.test(c)) throw new PorticoError('invalid_data', texts.codeNumeric ?? CODE_TEXTS.codeNumeric)
  if (c.length !== CODE_LENGTH) throw new PorticoError('invalid_data', texts.codeLength ?? CODE_TEXTS.codeLength)
  return c
}

/** Whether a typed code is complete (the boxes submit at the sixth digit). */
export function isCompleteCode(code: string): boolean {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(String(code ?? '').replace(/\s+/g, ''))
}

export function createCodeFlow<R, S extends SendOptions = SendOptions, V extends object = object>(
  options: CodeFlowOptions<R, S, V>,
): CodeFlow<R, S, V> {
  const { store } = options
  const now = options.now ?? (() => Date.now())
  const texts = (): CodeTexts => ({ ...CODE_TEXTS, ...(options.texts?.() ?? {}) })
  const fail = (e: unknown): never => {
    const error = toPorticoError(e)
    store.set({ status: 'error', error })
    throw error
  }

  const flow: CodeFlow<R, S, V> = {
    getState: store.get,
    subscribe: store.subscribe,

    async send(raw, sendOptions) {
      const opts = { ...(sendOptions ?? {}), intent: sendOptions?.intent ?? 'login' } as S & { intent: Intent }
      let destination: string
      try {
        const prepared = options.prepare ? options.prepare(raw, opts) : String(raw ?? '').trim()
        destination = typeof prepared === 'string' ? prepared : await prepared
      } catch (e) {
        return fail(e)
      }
      store.set({ status: 'sending-code', destination, intent: opts.intent, error: null })
      try {
        await options.send(destination, opts)
      } catch (e) {
        return fail(e)
      }
      store.set({ status: 'awaiting-code-input', codeSentAt: now(), error: null })
    },

    async resend(resendOptions) {
      const { destination, intent } = store.get()
      if (!destination) throw new PorticoError('invalid_data', texts().sendFirst)
      const wait = flow.resendIn()
      if (wait > 0) {
        throw new PorticoError('too_many_requests', texts().resendWait.replace('{seconds}', String(Math.ceil(wait / 1000))), {
          retryable: true,
        })
      }
      return flow.send(destination, { ...(resendOptions ?? {}), intent } as S)
    },

    resendIn() {
      const sentAt = store.get().codeSentAt
      return sentAt === null ? 0 : Math.max(0, sentAt + RESEND_COOLDOWN_MS - now())
    },

    async submit(raw, submitOptions) {
      const state = store.get()
      const { destination: given, intent: givenIntent, ...rest } = (submitOptions ?? {}) as Partial<VerifyContext> & V
      const intent = givenIntent ?? state.intent
      let destination: string
      let code: string
      try {
        const prepared = given
          ? options.prepare
            ? options.prepare(given, { intent } as S & { intent: Intent })
            : given.trim()
          : (state.destination ?? '')
        destination = typeof prepared === 'string' ? prepared : await prepared
        if (!destination) throw new PorticoError('invalid_data', texts().sendFirst)
        code = normaliseCode(raw, texts())
      } catch (e) {
        return fail(e)
      }
      store.set({ status: 'submitting-code', destination, intent, error: null })
      try {
        const result = await options.verify(code, { ...(rest as V), destination, intent })
        store.set({ status: 'done', error: null })
        return result
      } catch (e) {
        return fail(e)
      }
    },

    reset: () => store.reset(),
  }
  return flow
}
