import { PorticoError } from 'portico'

/** The 'Transfer wallet' screen id, the plugin id and its error constructor (shared by the entry and the lazily loaded flow). */
export const EXPORT_SCREEN = 'wallet-export'

export const WALLET_EXPORT = 'wallet-export'

export const exportError = (code: string, message: string, cause?: unknown) =>
  new PorticoError(code, message, { kind: 'client_error', cause, data: { provider: WALLET_EXPORT } })
