/**
 * The recovery state machines and choices (spec part 2 sections 2 and 4):
 * - the password create flow: creating → saving → confirming → finalizing → done; 'next'
 *   advances, 'back' returns one step, creating does not go back within the flow, leaving
 *   finalizing runs the submit action first and then the state becomes done (or failed);
 * - which recovery screen opens (automatic, password create/update, or the selection);
 * - which screen a wallet's recovery method needs at connect time;
 * - the selection's options (the method in use excluded).
 */

export type RecoveryMethod = 'privy' | 'user-passcode' | 'google-drive' | 'icloud'
export type UserOwnedMethod = Exclude<RecoveryMethod, 'privy'>
export type CloudMethod = 'google-drive' | 'icloud'
export const RECOVERY_METHODS: readonly RecoveryMethod[] = ['privy', 'user-passcode', 'google-drive', 'icloud']
export const USER_OWNED_METHODS: readonly UserOwnedMethod[] = ['google-drive', 'icloud', 'user-passcode']
export const isCloudMethod = (m: unknown): m is CloudMethod => m === 'google-drive' || m === 'icloud'

// ------------------------------------------------------------------ password create flow

export type PasswordStep = 'creating' | 'saving' | 'confirming' | 'finalizing' | 'done'
export const PASSWORD_STEPS: readonly PasswordStep[] = ['creating', 'saving', 'confirming', 'finalizing', 'done']

export interface PasswordFlowState {
  step: PasswordStep
  /** Set once the submit action ended: success or failure (the result screen). */
  result: 'success' | 'failure' | null
  submitting: boolean
}

export type PasswordFlowEvent = { type: 'next' } | { type: 'back' } | { type: 'submitted'; ok: boolean } | { type: 'reset' }

export const initialPasswordFlow: PasswordFlowState = { step: 'creating', result: null, submitting: false }

/** The pure transition function (the screen wraps it with the submit action). */
export function passwordFlow(state: PasswordFlowState, event: PasswordFlowEvent): PasswordFlowState {
  const i = PASSWORD_STEPS.indexOf(state.step)
  switch (event.type) {
    case 'reset':
      return initialPasswordFlow
    case 'next':
      if (state.step === 'done' || state.submitting) return state
      // Leaving finalizing runs the submit action first: the state waits for 'submitted'.
      if (state.step === 'finalizing') return { ...state, submitting: true }
      return { ...state, step: PASSWORD_STEPS[i + 1] }
    case 'back':
      // Creating does not go back within the flow (its back button leaves the flow); done is final.
      if (state.step === 'creating' || state.step === 'done' || state.submitting) return state
      return { ...state, step: PASSWORD_STEPS[i - 1] }
    case 'submitted':
      if (!state.submitting) return state
      return { step: 'done', submitting: false, result: event.ok ? 'success' : 'failure' }
  }
}

/**
 * Runs a password flow: `next()` from finalizing awaits `submit()` and then moves to done.
 * `initiatedBy: 'automatic'` cannot be cancelled or closed; the caller closes 1.4 s after done.
 */
export function createPasswordFlow(submit: () => Promise<void>, onChange?: (s: PasswordFlowState) => void) {
  let state = initialPasswordFlow
  const set = (s: PasswordFlowState) => {
    state = s
    onChange?.(s)
  }
  return {
    get state() {
      return state
    },
    async next() {
      const before = state
      set(passwordFlow(state, { type: 'next' }))
      if (before.step !== 'finalizing' || !state.submitting) return
      let ok = true
      try {
        await submit()
      } catch {
        ok = false
      }
      set(passwordFlow(state, { type: 'submitted', ok }))
    },
    back() {
      set(passwordFlow(state, { type: 'back' }))
    },
  }
}

// ------------------------------------------------------------------ which screen

export interface RecoveryConfig {
  /** Automatic (privy) recovery is on: no user-owned method is required. */
  automatic?: boolean
  /** The app lists only user-owned options. */
  userOwnedRecoveryOptions?: readonly UserOwnedMethod[]
  /** The legacy flow: password only. */
  legacy?: boolean
}

export type RecoveryScreenChoice =
  | { screen: 'automatic' }
  | { screen: 'password-create' | 'password-update'; skipSplash: boolean }
  | { screen: 'select'; options: UserOwnedMethod[] }

/**
 * 'Choosing the recovery screen': automatic if enabled; otherwise the password create
 * (when creating a wallet) or update screen when the legacy flow applies or only one method
 * is available (the splash skipped when resetting); otherwise the selection.
 */
export function chooseRecoveryScreen(
  config: RecoveryConfig,
  o: { creating: boolean; current?: RecoveryMethod | null; resetting?: boolean },
): RecoveryScreenChoice {
  if (config.automatic) return { screen: 'automatic' }
  const options = selectionOptions(config.userOwnedRecoveryOptions, o.current)
  if (config.legacy || options.length <= 1) {
    // A single cloud option still goes through the selection (its screen is the cloud one).
    if (options.length === 1 && isCloudMethod(options[0]) && !config.legacy) return { screen: 'select', options }
    return { screen: o.creating ? 'password-create' : 'password-update', skipSplash: !!o.resetting }
  }
  return { screen: 'select', options }
}

/** The selection's options: Google Drive, Apple iCloud and password, the method in use excluded. */
export function selectionOptions(allowed: readonly UserOwnedMethod[] | undefined, current?: RecoveryMethod | null): UserOwnedMethod[] {
  const list = allowed && allowed.length ? USER_OWNED_METHODS.filter((m) => allowed.includes(m)) : [...USER_OWNED_METHODS]
  // The method already in use is excluded from the cloud options (a password can be updated).
  return list.filter((m) => !(isCloudMethod(m) && m === current))
}

export type ConnectRecoveryScreen = { screen: 'silent' } | { screen: 'password-recover' } | { screen: 'cloud'; method: CloudMethod } | { screen: 'failure' }

/** 'Recovery method to screen' at connect time (needs-recovery). */
export function screenForMethod(method: unknown): ConnectRecoveryScreen {
  if (method === 'privy') return { screen: 'silent' }
  if (method === 'user-passcode') return { screen: 'password-recover' }
  if (isCloudMethod(method)) return { screen: 'cloud', method }
  return { screen: 'failure' }
}
