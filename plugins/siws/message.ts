/**
 * The Sign-In With Solana message: the EIP-4361 layout with "Solana account", exactly as the
 * reference server parses it (examples/server/src/siws-message.ts):
 *
 *   {domain} wants you to sign in with your Solana account:
 *   {address}
 *
 *   {statement}
 *
 *   URI: {uri}
 *   Version: 1
 *   Chain ID: {chainId}
 *   Nonce: {nonce}
 *   Issued At: {ISO 8601}
 */
import { pageOrigin } from 'portico/kits/wallet'
import { SIWS_TEXTS } from './strings'

export interface SiwsMessageInput {
  address: string
  nonce: string
  /** Default: the page's `location.host`. */
  domain?: string
  /** Default: the page's `location.origin`. */
  uri?: string
  statement?: string
  /** e.g. 'mainnet', 'devnet'. */
  chainId?: string
  issuedAt?: Date
  expirationTime?: Date
}

export function buildSiwsMessage(m: SiwsMessageInput): string {
  const page = m.domain && m.uri ? { host: m.domain, origin: m.uri } : pageOrigin()
  const statement = m.statement ?? SIWS_TEXTS.statement
  const out = [`${m.domain ?? page.host} wants you to sign in with your Solana account:`, m.address, '']
  if (statement) out.push(statement, '')
  const fields: [string, string | undefined][] = [
    ['URI', m.uri ?? page.origin],
    ['Version', '1'],
    ['Chain ID', m.chainId],
    ['Nonce', m.nonce],
    ['Issued At', (m.issuedAt ?? new Date()).toISOString()],
    ['Expiration Time', m.expirationTime?.toISOString()],
  ]
  for (const [k, v] of fields) if (v) out.push(`${k}: ${v}`)
  return out.join('\n')
}
