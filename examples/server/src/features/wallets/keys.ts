/** The wallets' keys: the recovery key and the purposes of what it and the server secret seal. */
import { createHash, hkdfSync } from 'node:crypto'

export interface WalletOptions {
  /** The wallet frame's origin (its own listener): the only origin shares are released to. */
  frameOrigin?: string | (() => string | undefined)
  /** The recovery key sealing `privy` recovery shares (at least 32 characters; never stored in the database). */
  recoveryKey?: string
  /** Previous recovery keys (rotation): they open what they sealed, never seal (PORTICO_RECOVERY_KEY_PREVIOUS). */
  recoveryKeyPrevious?: string[]
}

export const AUTH_SHARE_PURPOSE = 'wallet-auth-share'

export const RECOVERY_SHARE_PURPOSE = 'wallet-recovery-share'

/** The development-mode recovery key (derived from the server secret; production refuses it: keys-at-rest.ts). */
export function derivedRecoveryKey(secret: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'portico', 'portico wallet recovery key v1', 32)).toString('base64url')
}

/** A fingerprint of the recovery key for logs (never the key). */
export const recoveryKeyId = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 8)
