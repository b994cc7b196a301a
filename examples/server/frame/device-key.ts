/**
 * The frame's device key (issue 26): one non-extractable ECDSA P-256 key pair per app, kept in
 * the frame's store ('keys', `device-signing:<appId>`; a CryptoKey is stored as a handle, never
 * as bytes). Its RFC 7638 thumbprint is the device id. Every wallet request carries a proof by
 * this key: a compact JWS over the method, the path, a single-use server nonce, the access
 * token's hash and the root, so a stolen token alone is no device.
 */
import { SignJWT, calculateJwkThumbprint, exportJWK, type JWK } from 'jose'
import { DEVICE_PROOF_TYP } from '../src/wire/custody'
import { frameStore, type FrameStore } from './storage'

export interface DeviceKey {
  /** The RFC 7638 thumbprint (SHA-256, base64url) of the public JWK. */
  id: string
  publicJwk: JWK
  privateKey: CryptoKey
}

interface Stored {
  privateKey: CryptoKey
  publicKey: CryptoKey
}

const storeKey = (appId: string) => `device-signing:${appId}`
const loaded = new WeakMap<FrameStore, Map<string, Promise<DeviceKey>>>()

async function describe(k: Stored): Promise<DeviceKey> {
  const jwk = await exportJWK(k.publicKey)
  const publicJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }
  return { id: await calculateJwkThumbprint(publicJwk, 'sha256'), publicJwk, privateKey: k.privateKey }
}

async function loadOrCreate(appId: string, store: FrameStore): Promise<DeviceKey> {
  const existing = await store.get<Stored>('keys', storeKey(appId))
  if (existing?.privateKey && existing.publicKey) return describe(existing)
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair
  await store.put('keys', storeKey(appId), { privateKey: pair.privateKey, publicKey: pair.publicKey } satisfies Stored)
  // Two tabs may race: read back whichever was stored.
  return describe((await store.get<Stored>('keys', storeKey(appId))) ?? pair)
}

/** This frame's device key for `appId` (created on first use). */
export function deviceKey(appId: string, store: FrameStore = frameStore()): Promise<DeviceKey> {
  let m = loaded.get(store)
  if (!m) loaded.set(store, (m = new Map()))
  let p = m.get(appId)
  if (!p) {
    p = loadOrCreate(appId, store)
    m.set(appId, p)
    p.catch(() => m!.delete(appId))
  }
  return p
}

const b64url = (bytes: ArrayBuffer | Uint8Array) => {
  const u = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)
  let s = ''
  for (const b of u) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** base64url(SHA-256(access token)): the proof's `ath`. */
export async function tokenHash(accessToken: string): Promise<string> {
  return b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken)))
}

export interface ProofInput {
  htm: string
  /** The path under /api/v1 (e.g. '/wallets/auth_share'). */
  htu: string
  accessToken: string
  /** The root the request is about (lowercased), or null. */
  entropyId: string | null
  nonce: string
}

/** A device proof (compact JWS, ES256, typ portico-device+jwt, the public JWK in the header). */
export async function proof(key: DeviceKey, p: ProofInput): Promise<string> {
  return new SignJWT({
    htm: p.htm,
    htu: p.htu,
    nonce: p.nonce,
    ath: await tokenHash(p.accessToken),
    eid: p.entropyId ? p.entropyId.toLowerCase() : null,
  })
    .setProtectedHeader({ alg: 'ES256', typ: DEVICE_PROOF_TYP, jwk: key.publicJwk })
    .setIssuedAt()
    .setJti(b64url(crypto.getRandomValues(new Uint8Array(16))))
    .sign(key.privateKey)
}
