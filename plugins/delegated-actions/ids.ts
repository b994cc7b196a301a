/** Screen ids and the result delay (shared by the entry and the lazily loaded flow). */
export const CONSENT_SCREEN = 'delegated-actions-consent'
export const REVOKE_SCREEN = 'delegated-actions-revoke'
/** Spec part 2 section 9: 'Delegation result close 2.5 s'. */
export const RESULT_CLOSE_MS = 2500
