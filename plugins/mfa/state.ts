/**
 * The MFA base's constants, state and API shape: what the entry holds (./index.ts). The
 * verification itself (./flow.ts) loads on first use.
 */
import type { Store, User, WireUser } from 'portico'
import type { MfaType } from 'portico/kits/mfa'

/** Part 2 section 9 (the code's 6 digits are the code kit's rule, portico/kits/mfa). */
export const MFA_MAX_ATTEMPTS = 4
export const MFA_CODE_WAIT_MS = 300_000
/** The MFA methods of part 2 section 9, in the order the method list shows them. */
export const MFA_METHOD_TYPES: readonly MfaType[] = ['totp', 'sms', 'passkey']
/**
 * A verification this recent lets the user add or remove methods, and sign or send with the
 * embedded wallet, without verifying again (the server accepts one for 300 s; the client asks
 * again a minute earlier).
 */
export const MFA_FRESH_MS = 240_000

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
  /**
   * When this browser last passed 'Verify your identity' (ms; an enrolment does not count):
   * wallet actions within MFA_FRESH_MS of it go on without a new code, as the server releases
   * the wallet for 300 s after a verification. Export always asks again.
   */
  lastActionVerifiedAt: number | null
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
  lastActionVerifiedAt: null,
}) as MfaState

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
  readonly state: Store<MfaState>
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

