/**
 * The custody contract's Node-free half (issue 26): shared by the server and the wallet frame
 * (which runs in a browser). Header names, error codes, and the message a root's index-0 key
 * signs to authorise a change to its shares or devices.
 */
export const DEVICE_PROOF_HEADER = 'portico-device-proof'
export const DEVICE_NONCE_HEADER = 'portico-device-nonce'
export const DEVICE_PROOF_TYP = 'portico-device+jwt'

/** Error codes (the `code` of the server's error body). */
export const CUSTODY_CODES = {
  /** No proof, a bad proof, or a proof from a key this user never registered. */
  proofRequired: 'device_proof_required',
  /** The nonce is missing, used or expired: retry with the nonce in `portico-device-nonce`. */
  nonce: 'device_proof_nonce',
  /** This device is not registered (or the session is bound to another): step up first. */
  stepUpRequired: 'device_step_up_required',
  /** The user has no channel for a step-up (no verified e-mail or phone, no MFA). */
  stepUpUnavailable: 'step_up_unavailable',
  /** The device was revoked by the user. */
  deviceRevoked: 'device_revoked',
  /** A change to the shares without a valid signature by the root's index-0 key. */
  ownerSignature: 'wallet_owner_signature_invalid',
} as const

/** The user-facing texts of the custody errors (the frame shows them too). */
export const CUSTODY_TEXTS = {
  proofRequired: 'Wallet secrets are released to a registered wallet device only.',
  nonce: 'The wallet device proof expired. Please try again.',
  stepUpRequired: 'Confirm it’s you to use your wallet on this device.',
  stepUpUnavailable: 'This wallet cannot be restored on a new device: add an e-mail address, a phone number or MFA to your account first.',
  deviceRevoked: 'This device was removed from your wallet.',
  ownerSignature: 'The change is not signed by the wallet.',
  newDeviceNotice: 'A new device was added to your wallet',
} as const

/** A wallet device as the devices routes answer it (/wallets/devices, /wallets/devices/revoke). */
export interface WireWalletDevice {
  id: string
  label: string | null
  created_at: number
  last_used_at: number
  session_only: boolean
  /** The device this session is bound to. */
  current: boolean
}

export type OwnerAction = 'set_recovery' | 'add' | 'register_device' | 'revoke_device' | 'password_recovered'

/**
 * The text the root's index-0 key signs (EIP-191 personal_sign for Ethereum roots; ed25519 over
 * the UTF-8 bytes for Solana roots): one 'name: value' line per field, in a fixed order.
 */
export function ownerMessage(p: { action: OwnerAction; appId: string; entropyId: string; nonce: string; fields?: Record<string, string | number> }): string {
  const lines = ['Portico wallet change', `action: ${p.action}`, `app: ${p.appId}`, `root: ${p.entropyId.toLowerCase()}`, `nonce: ${p.nonce}`]
  for (const [k, v] of Object.entries(p.fields ?? {})) {
    const value = String(v)
    if (/[\r\n]/.test(k) || /[\r\n]/.test(value)) throw new Error('ownerMessage: a field must be one line')
    lines.push(`${k}: ${value}`)
  }
  return lines.join('\n')
}

/**
 * What a new device signs with the key it derives from a user-owned recovery share (frame
 * recovery-proof.ts), to get the auth share after opening that share with the user's password
 * or cloud file: it proves the share without showing it.
 */
export function recoveryProofMessage(p: { appId: string; entropyId: string; nonce: string; deviceId: string }): string {
  return ['Portico wallet recovery', `app: ${p.appId}`, `root: ${p.entropyId.toLowerCase()}`, `nonce: ${p.nonce}`, `device: ${p.deviceId}`].join('\n')
}

/** The HKDF salt of the recovery-proof key (info: `<appId>|<entropy id lowercased>`). */
export const RECOVERY_PROOF_SALT = 'portico recovery proof v1'

const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('')
const sha256hex = async (v: string) => hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(v)))

/** The action fields set_recovery's owner signature covers (over the strings as sent). */
export async function setRecoveryFields(b: { auth_share?: string | null; recovery_share: string; recovery_method: string; recovery_proof_key?: string | null }) {
  return {
    auth_share_sha256: b.auth_share ? await sha256hex(b.auth_share) : 'none',
    recovery_share_sha256: await sha256hex(b.recovery_share),
    recovery_method: b.recovery_method,
    recovery_proof_key: b.recovery_proof_key ?? 'none',
  }
}
