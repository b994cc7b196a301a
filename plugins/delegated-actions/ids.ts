import { PorticoError } from 'portico'

/** Screen ids, the result delay, the plugin id and its error constructor (shared by the entry and the lazily loaded flow). */
export const CONSENT_SCREEN = 'delegated-actions-consent'
export const REVOKE_SCREEN = 'delegated-actions-revoke'
/** Spec part 2 section 9: 'Delegation result close 2.5 s'. */
export const RESULT_CLOSE_MS = 2500

export const DELEGATED_ACTIONS = 'delegated-actions'

export const delegationError = (code: string, message: string, cause?: unknown) =>
  new PorticoError(code, message, { kind: 'client_error', cause, data: { provider: DELEGATED_ACTIONS } })
