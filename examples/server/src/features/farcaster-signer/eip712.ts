/**
 * The Signed Key Request of Farcaster's SignedKeyRequestValidator (EIP-712), as Farcaster
 * documents it: the app's FID, through its custody key, vouches for an Ed25519 key until a
 * deadline. Shared by the server (signs) and the Farcaster client API stand-in (verifies).
 */
export const SIGNED_KEY_REQUEST_VALIDATOR_ADDRESS = '0x00000000FC700472606ED4fA22623Acf62c60553' as const

export const SIGNED_KEY_REQUEST_DOMAIN = {
  name: 'Farcaster SignedKeyRequestValidator',
  version: '1',
  chainId: 10,
  verifyingContract: SIGNED_KEY_REQUEST_VALIDATOR_ADDRESS,
} as const

export const SIGNED_KEY_REQUEST_TYPES = {
  SignedKeyRequest: [
    { name: 'requestFid', type: 'uint256' },
    { name: 'key', type: 'bytes' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

/** An Ed25519 public key on the wire: 0x and 64 hex digits (32 bytes), lower case. */
export const ED25519_KEY = /^0x[0-9a-f]{64}$/
