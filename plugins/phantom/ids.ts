/** The Phantom plugin's names: return-address parameters, connector id, defaults. */

/** Query parameters of the return address: ours (connector, wallet client type, step) and Phantom's. */
export const RETURN_PARAMS = {
  connector: 'portico_wallet_connector',
  client: 'portico_wallet_client',
  step: 'portico_wallet_step',
} as const
export const PHANTOM_PARAMS = ['phantom_encryption_public_key', 'nonce', 'data', 'errorCode', 'errorMessage'] as const

export const PHANTOM_CONNECTOR_ID = 'phantom:deeplink'
export const DEFAULT_PHANTOM_URL = 'https://phantom.app/ul/v1'
/** A pending deep-link session older than this is dropped. */
export const PENDING_TTL_MS = 15 * 60_000
