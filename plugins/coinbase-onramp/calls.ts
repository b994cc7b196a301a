/** Coinbase Onramp calls (spec part 2 section 7): the server gets the session token and reads the status. */
import type { Api } from 'portico'

export interface CoinbaseInitBody {
  addresses: { address: string; blockchains: string[] }[]
  assets?: string[]
}

export interface CoinbaseInitResponse {
  app_id: string
  session_token: string
  partner_user_id: string
}

/** POST /funding/coinbase_on_ramp/init. */
export function initCoinbaseOnramp(api: Api, body: CoinbaseInitBody): Promise<CoinbaseInitResponse> {
  return api.post<CoinbaseInitResponse>('/funding/coinbase_on_ramp/init', body)
}

/** GET /funding/coinbase_on_ramp/status?partnerUserId → success | failure | pending. */
export function getCoinbaseOnrampStatus(api: Api, partnerUserId: string): Promise<{ status: 'success' | 'failure' | 'pending' }> {
  return api.get(`/funding/coinbase_on_ramp/status?partnerUserId=${encodeURIComponent(partnerUserId)}`)
}
