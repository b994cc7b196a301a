/** The 'Transfer wallet' screen id (shared by the entry and the lazily loaded flow). */
export const EXPORT_SCREEN = 'wallet-export'
