/**
 * The lazy half of the Phantom connector: Phantom's documented deep-link protocol
 * (https://docs.phantom.com/phantom-deeplinks): `connect` with `app_url`,
 * `dapp_encryption_public_key`, `cluster` and `redirect_link`; Phantom answers on
 * `redirect_link` with `phantom_encryption_public_key`, `nonce` and `data` (the JSON
 * `{ public_key, session }` sealed with the shared box key) or with `errorCode` and
 * `errorMessage`; `signMessage` sends `payload` (`{ message, session, display }` sealed) and
 * gets `data` (`{ signature }` sealed) back. Loaded when the user picks Phantom or returns.
 */
import { x25519 } from '@noble/curves/ed25519.js'
import { base58, boxBefore, boxKeyPair, openJson, sealJson } from './crypto'

export interface ConnectRequest {
  baseUrl: string
  appUrl: string
  cluster: string
  redirectLink: string
}

/** The pending deep-link session, kept in this tab's sessionStorage across the redirect. */
export interface PhantomPending {
  /** The dapp's x25519 secret key (base58): this tab's half of the box key. */
  secretKey: string
  phantomPublicKey?: string
  session?: string
  address?: string
  step: 'connect' | 'sign'
  intent: 'login' | 'link'
  connectOnly?: boolean
  /** The SIWS message sent to be signed. */
  message?: string
  createdAt: number
}

/** The connect deep link and the pending session to keep. */
export function connectLink(req: ConnectRequest, pending: Omit<PhantomPending, 'secretKey' | 'step' | 'createdAt'>): { url: string; pending: PhantomPending } {
  const keys = boxKeyPair()
  const u = new URL(`${req.baseUrl.replace(/\/+$/, '')}/connect`)
  u.searchParams.set('app_url', req.appUrl)
  u.searchParams.set('dapp_encryption_public_key', base58.encode(keys.publicKey))
  u.searchParams.set('cluster', req.cluster)
  u.searchParams.set('redirect_link', req.redirectLink)
  return { url: u.toString(), pending: { ...pending, secretKey: base58.encode(keys.secretKey), step: 'connect', createdAt: Date.now() } }
}

/** Read Phantom's answer to `connect`: the wallet's address and the session. */
export function readConnect(q: URLSearchParams, pending: PhantomPending): PhantomPending {
  const phantomKey = q.get('phantom_encryption_public_key')
  const nonce = q.get('nonce')
  const data = q.get('data')
  if (!phantomKey || !nonce || !data) throw new Error('Phantom returned no data.')
  const shared = boxBefore(base58.decode(phantomKey), base58.decode(pending.secretKey))
  const out = openJson<{ public_key?: string; session?: string }>(data, nonce, shared)
  if (typeof out.public_key !== 'string' || typeof out.session !== 'string') throw new Error('Phantom returned no account.')
  // A Solana address is the base58 of a 32-byte ed25519 public key.
  if (base58.decode(out.public_key).length !== 32) throw new Error('Phantom returned an invalid account.')
  return { ...pending, phantomPublicKey: phantomKey, session: out.session, address: out.public_key }
}

/** The signMessage deep link for a connected session. */
export function signMessageLink(baseUrl: string, redirectLink: string, pending: PhantomPending, message: string): string {
  if (!pending.phantomPublicKey || !pending.session) throw new Error('Phantom is not connected.')
  const shared = boxBefore(base58.decode(pending.phantomPublicKey), base58.decode(pending.secretKey))
  const keys = base58.encode(x25519Public(pending.secretKey))
  const { nonce, payload } = sealJson({ message: base58.encode(new TextEncoder().encode(message)), session: pending.session, display: 'utf8' }, shared)
  const u = new URL(`${baseUrl.replace(/\/+$/, '')}/signMessage`)
  u.searchParams.set('dapp_encryption_public_key', keys)
  u.searchParams.set('nonce', nonce)
  u.searchParams.set('redirect_link', redirectLink)
  u.searchParams.set('payload', payload)
  return u.toString()
}

/** Read Phantom's answer to `signMessage`: the 64-byte signature. */
export function readSignature(q: URLSearchParams, pending: PhantomPending): Uint8Array {
  const nonce = q.get('nonce')
  const data = q.get('data')
  if (!nonce || !data || !pending.phantomPublicKey) throw new Error('Phantom returned no signature.')
  const shared = boxBefore(base58.decode(pending.phantomPublicKey), base58.decode(pending.secretKey))
  const out = openJson<{ signature?: string }>(data, nonce, shared)
  const sig = typeof out.signature === 'string' ? base58.decode(out.signature) : null
  if (!sig || sig.length !== 64) throw new Error('Phantom returned an invalid signature.')
  return sig
}

function x25519Public(secretKey: string): Uint8Array {
  return x25519.getPublicKey(base58.decode(secretKey))
}

/** Base64 (the SIWS wire's signature encoding). */
export function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i])
  return btoa(s)
}

export { buildSiwsMessage } from 'portico/plugins/siws'
