/**
 * The EIP-4361 (Sign-In with Ethereum) message, built with viem's `createSiweMessage`. Part of
 * the lazy chunk loaded when the user picks a wallet (with viem), never of the entry.
 * The reference server parses it with viem's `parseSiweMessage` and checks the domain
 * against the app's allowed origins, the nonce, the times and the signature.
 */
import { getAddress } from 'viem/utils'
import { createSiweMessage } from 'viem/siwe'
import { pageOrigin } from 'portico/kits/wallet'
import { SIWE_TEXTS } from './strings'

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

export function buildSiweMessage(input: SiweMessageInput): string {
  const page = input.domain && input.uri ? { host: input.domain, origin: input.uri } : pageOrigin()
  return createSiweMessage({
    address: getAddress(input.address),
    chainId: input.chainId,
    domain: input.domain ?? page.host,
    uri: input.uri ?? page.origin,
    nonce: input.nonce,
    version: '1',
    statement: input.statement ?? SIWE_TEXTS.statement,
    issuedAt: input.issuedAt ?? new Date(),
    expirationTime: input.expirationTime,
  })
}
