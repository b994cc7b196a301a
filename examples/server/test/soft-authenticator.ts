/**
 * A software WebAuthn authenticator for HTTP-level tests: what a browser and a platform
 * authenticator send (W3C WebAuthn level 2: 'none' attestation, ES256 keys, authenticator
 * data with rpIdHash, flags and sign counter). Keys and signatures are node:crypto's; the
 * CBOR encoder is @simplewebauthn/server's. The browser suite uses Chromium's virtual
 * authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64u = (b: Uint8Array | Buffer | string) => Buffer.from(b as Uint8Array).toString('base64url')
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest()
const u32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n >>> 0)
  return b
}

export interface SoftCredential {
  id: string
  key: KeyObject
  counter: number
  rpId: string
}

export interface CreateOptions {
  origin: string
  /** rpId the authenticator hashes (default the options' rp.id). */
  rpId?: string
  /** AAGUID as 16 bytes hex (default all zeros). */
  aaguid?: string
  /** Challenge put in clientDataJSON (default the options'). */
  challenge?: string
  type?: string
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = []

  /** navigator.credentials.create(): a RegistrationResponseJSON. */
  create(options: { challenge: string; rp: { id?: string } }, o: CreateOptions) {
    const rpId = o.rpId ?? options.rp.id!
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const jwk = publicKey.export({ format: 'jwk' })
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ])
    const credId = randomBytes(16)
    const aaguid = Buffer.from((o.aaguid ?? '00'.repeat(16)).replace(/-/g, ''), 'hex')
    const len = Buffer.alloc(2)
    len.writeUInt16BE(credId.length)
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([0x45]), // UP | UV | AT
      u32(0),
      aaguid,
      len,
      credId,
      Buffer.from(isoCBOR.encode(cose as never)),
    ])
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    )
    const clientDataJSON = JSON.stringify({ type: o.type ?? 'webauthn.create', challenge: o.challenge ?? options.challenge, origin: o.origin, crossOrigin: false })
    const cred: SoftCredential = { id: b64u(credId), key: privateKey, counter: 0, rpId }
    this.credentials.push(cred)
    return {
      id: cred.id,
      rawId: cred.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64u(clientDataJSON), attestationObject: b64u(attestationObject), transports: ['internal'] },
    }
  }

  /** navigator.credentials.get(): an AuthenticationResponseJSON signed by `cred` (default the newest). */
  get(
    options: { challenge: string; rpId?: string },
    o: { origin: string; cred?: SoftCredential; counter?: number; signWith?: KeyObject; rpId?: string; challenge?: string },
  ) {
    const cred = o.cred ?? this.credentials[this.credentials.length - 1]
    cred.counter = o.counter ?? cred.counter + 1
    const authData = Buffer.concat([sha256(o.rpId ?? options.rpId ?? cred.rpId), Buffer.from([0x05]), u32(cred.counter)])
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: o.challenge ?? options.challenge, origin: o.origin, crossOrigin: false }),
    )
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), o.signWith ?? cred.key)
    return {
      id: cred.id,
      rawId: cred.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: null,
      },
    }
  }
}
