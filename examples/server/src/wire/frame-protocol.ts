/**
 * The wallet frame protocol's runtime half, as the server's frame speaks it: the protocol mark,
 * the envelope check, the HD derivation paths and the recovery password rule (spec part 2
 * sections 5 and 7). The client's plugin (plugins/embedded-wallet/protocol.ts,
 * recovery/password.ts) holds its own; both must agree to the letter, and
 * test/frame-protocol.test.ts proves they do. The server shares only wire *types* with the
 * client (wire/frame.ts re-exports them with `export type`), so the frame runs no client code.
 */
import type { FrameRequestMessage } from '../../../../plugins/embedded-wallet/protocol'

/** Marks every message of this protocol (so a page's other postMessage traffic is ignored cheaply). */
export const FRAME_PROTOCOL = 'portico-wallet-frame/1' as const

/** Host → frame: a message of this protocol with an id and a type. */
export function isFrameRequest(m: unknown): m is FrameRequestMessage {
  const x = m as FrameRequestMessage | null
  return !!x && typeof x === 'object' && x.protocol === FRAME_PROTOCOL && typeof x.id === 'string' && typeof x.type === 'string'
}

/** BIP-44 paths of the HD wallets (index = wallet_index). */
export const ethereumPath = (i: number) => `m/44'/60'/0'/0/${i}`
export const solanaPath = (i: number) => `m/44'/501'/${i}'/0'`

/** The recovery password: at least 6 characters, letters, digits and ! @ # $ % ^ & * ( ) - _ + only. */
export const PASSWORD_MIN_LENGTH = 6
const PASSWORD_CHAR = /^[A-Za-z0-9!@#$%^&*()\-_+]$/
const PASSWORD_TEXTS = {
  tooShort: 'Password must be at least 6 characters',
  invalidCharacters: 'Invalid characters used ( {list} )',
}

/** The error for a password the rule refuses (the characters it refuses, each once; a space as SPACE), or null. */
export function passwordError(password: string): string | null {
  const bad = [...new Set([...password].filter((ch) => !PASSWORD_CHAR.test(ch)).map((ch) => (ch === ' ' ? 'SPACE' : ch)))]
  if (bad.length) return PASSWORD_TEXTS.invalidCharacters.replace('{list}', bad.join(', '))
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_TEXTS.tooShort
  return null
}

export const isValidPassword = (password: string) => password.length > 0 && passwordError(password) === null
