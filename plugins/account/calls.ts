/**
 * Transfer calls by link method (part 1 section 7): move an identifier that belongs to
 * another account onto the logged-in user with the nonce of the `account_transfer_required`
 * error. The server deletes the other account.
 */
import { PorticoError, formatText, type Api, type WireAccountTransferData, type WireAuthResponse } from 'portico'
import { ACCOUNT_TEXTS } from './strings'

export type TransferCall = (api: Api, data: WireAccountTransferData) => Promise<WireAuthResponse>

export const BUILTIN_TRANSFERS: Record<string, TransferCall> = {
  /** POST /passwordless/transfer {nonce, email} */
  email: (api, d) => api.post('/passwordless/transfer', { nonce: d.nonce, email: d.account }, { fromUi: true }),
  /** POST /passwordless_sms/transfer {nonce, phoneNumber} */
  sms: (api, d) => api.post('/passwordless_sms/transfer', { nonce: d.nonce, phoneNumber: d.account }, { fromUi: true }),
  /** POST /siwe/transfer {nonce, address} */
  siwe: (api, d) => api.post('/siwe/transfer', { nonce: d.nonce, address: d.account }, { fromUi: true }),
  /** POST /siws/transfer {nonce, address} */
  siws: (api, d) => api.post('/siws/transfer', { nonce: d.nonce, address: d.account }, { fromUi: true }),
}

/** Read the transfer data of an `account_transfer_required` error (or null when it has none). */
export function transferData(data: unknown): WireAccountTransferData | null {
  const d = data as Partial<WireAccountTransferData> | null | undefined
  if (!d || typeof d.nonce !== 'string' || !d.nonce || typeof d.link_method !== 'string') return null
  return {
    nonce: d.nonce,
    account: String(d.account ?? d.display_name ?? ''),
    account_type: String(d.account_type ?? ''),
    display_name: String(d.display_name ?? d.account ?? ''),
    link_method: d.link_method,
    embedded_wallet_address: typeof d.embedded_wallet_address === 'string' && d.embedded_wallet_address ? d.embedded_wallet_address : null,
  }
}

export function transfer(api: Api, data: WireAccountTransferData, extra: Record<string, TransferCall> = {}) {
  const call = extra[data.link_method] ?? BUILTIN_TRANSFERS[data.link_method]
  if (!call) {
    return Promise.reject(new PorticoError('not_supported', formatText(ACCOUNT_TEXTS.unsupported, { method: data.link_method })))
  }
  return call(api, data)
}
