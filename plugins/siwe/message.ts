/**
 * The EIP-4361 (Sign-In with Ethereum) message, built with viem's `createSiweMessage`.
 * The reference server parses it with viem's `parseSiweMessage` and checks the domain
 * against the app's allowed origins, the nonce, the times and the signature.
 */
import { getAddress } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { WALLET_STRINGS } from './strings'

export interface SiweMessageInput {
  address: string
  chainId: number
  nonce: string
  /** Defaults to the page's `location.host`. */
  domain?: string
  /** Defaults to the page's `location.origin`. */
  uri?: string
  statement?: string
  issuedAt?: Date
  expirationTime?: Date
}

/** The page's host and origin (the SIWE domain and URI). */
export function pageOrigin(): { host: string; origin: string } {
  const loc = (globalThis as { location?: Location }).location
  if (!loc?.host) throw new Error('Sign-in with a wallet needs a page location (domain and URI of the message).')
  return { host: loc.host, origin: loc.origin }
}

export function buildSiweMessage(input: SiweMessageInput): string {
  const page = input.domain && input.uri ? { host: input.domain, origin: input.uri } : pageOrigin()
  return createSiweMessage({
    address: getAddress(input.address),
    chainId: input.chainId,
    domain: input.domain ?? page.host,
    uri: input.uri ?? page.origin,
    nonce: input.nonce,
    version: '1',
    statement: input.statement ?? WALLET_STRINGS.statement,
    issuedAt: input.issuedAt ?? new Date(),
    expirationTime: input.expirationTime,
  })
}
