/** MoonPay calls: the server signs the widget URL; the transaction status comes from MoonPay's API. */
import { PorticoError, type Api } from 'portico'

export interface MoonpaySignBody {
  address: string
  useSandbox: boolean
  config: {
    uiConfig?: { accentColor?: string; theme?: 'light' | 'dark' }
    paymentMethod?: string
    currencyCode: string
    quoteCurrencyAmount?: number
  }
}

export interface MoonpaySignResponse {
  signedUrl: string
  externalTransactionId: string
}

/** POST /plugins/moonpay_on_ramp/sign. */
export function signMoonpayUrl(api: Api, body: MoonpaySignBody): Promise<MoonpaySignResponse> {
  return api.post<MoonpaySignResponse>('/plugins/moonpay_on_ramp/sign', body)
}

/** GET {moonpay host}/v1/transactions/ext/{externalTransactionId}?apiKey — the newest transaction's status; 404 while there is none. */
export async function fetchMoonpayStatus(fetchFn: typeof fetch, apiUrl: string, externalTransactionId: string, apiKey: string): Promise<string> {
  const url = `${apiUrl.replace(/\/$/, '')}/v1/transactions/ext/${encodeURIComponent(externalTransactionId)}?apiKey=${encodeURIComponent(apiKey)}`
  const res = await fetchFn(url)
  if (!res.ok) throw new PorticoError('provider_error', `MoonPay answered ${res.status}`, { kind: 'provider_error', status: res.status })
  const body = (await res.json()) as { status?: string } | { status?: string }[]
  const tx = Array.isArray(body) ? body[0] : body
  return tx?.status ?? 'pending'
}
