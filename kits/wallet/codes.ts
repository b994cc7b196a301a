/** Codes the wallet base raises on its own (the server's codes pass through unchanged). */
export const WALLET_CONNECT_CODES = {
  rejected: 'wallet_user_rejected',
  timeout: 'wallet_request_timeout',
  noAddress: 'wallet_no_address',
  unsupported: 'wallet_unsupported',
  failed: 'wallet_connection_failed',
} as const
