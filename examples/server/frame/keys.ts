/**
 * Key primitives of the wallet frame (runs only inside the frame page, on the wallet
 * service's origin). No cryptography is written here: 128 bits from the platform CSPRNG →
 * BIP-39 (@scure/bip39) → HD keys: Ethereum BIP-32 secp256k1 (@scure/bip32) at
 * m/44'/60'/0'/0/i signed with viem accounts; Solana SLIP-0010 ed25519
 * (micro-key-producer/slip10) at m/44'/501'/i'/0' signed with @noble/curves.
 */
import { HDKey } from '@scure/bip32'
import { entropyToMnemonic, mnemonicToEntropy, mnemonicToSeedWebcrypto, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { base58 } from '@scure/base'
import { ed25519 } from '@noble/curves/ed25519.js'
import { HDKey as Slip10Key } from 'micro-key-producer/slip10.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { toHex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { ethereumPath, solanaPath, type ChainType, type EntropyIdVerifier } from '../src/wire/frame'

/** 128 bits of entropy (a 12-word mnemonic) from the platform CSPRNG. */
export const ENTROPY_BYTES = 16

export function generateEntropy(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(ENTROPY_BYTES))
}

export function entropyToPhrase(entropy: Uint8Array): string {
  return entropyToMnemonic(entropy, wordlist)
}

export function phraseToEntropy(phrase: string): Uint8Array {
  if (!validateMnemonic(phrase, wordlist)) throw new Error('Invalid recovery phrase')
  return mnemonicToEntropy(phrase, wordlist)
}

/** The BIP-39 seed (PBKDF2-HMAC-SHA512 × 2048 through WebCrypto). */
export async function seedFromEntropy(entropy: Uint8Array): Promise<Uint8Array> {
  return mnemonicToSeedWebcrypto(entropyToPhrase(entropy))
}

export interface SolanaKey {
  address: string
  publicKey: Uint8Array
  /** The 32-byte ed25519 secret (seed). */
  secretKey: Uint8Array
  sign(message: Uint8Array): Uint8Array
}

/** One HD root in memory: derives wallets on demand and keeps them for the session. */
export class HdRoot {
  private eth = new Map<number, PrivateKeyAccount>()
  private sol = new Map<number, SolanaKey>()
  private constructor(private seed: Uint8Array) {}

  static async fromEntropy(entropy: Uint8Array): Promise<HdRoot> {
    return new HdRoot(await seedFromEntropy(entropy))
  }

  ethereum(index: number): PrivateKeyAccount {
    checkIndex(index)
    let a = this.eth.get(index)
    if (!a) {
      const key = HDKey.fromMasterSeed(this.seed).derive(ethereumPath(index)).privateKey
      if (!key) throw new Error('Key derivation failed')
      a = privateKeyToAccount(toHex(key))
      this.eth.set(index, a)
    }
    return a
  }

  solana(index: number): SolanaKey {
    checkIndex(index)
    let k = this.sol.get(index)
    if (!k) {
      const secretKey = Slip10Key.fromMasterSeed(this.seed).derive(solanaPath(index)).privateKey
      const publicKey = ed25519.getPublicKey(secretKey)
      k = { address: base58.encode(publicKey), publicKey, secretKey, sign: (m) => ed25519.sign(m, secretKey) }
      this.sol.set(index, k)
    }
    return k
  }

  address(chainType: ChainType, index: number): string {
    return chainType === 'ethereum' ? this.ethereum(index).address : this.solana(index).address
  }

  /** The root's id: its index-0 address on the verifier's chain (spec: entropyId / entropyIdVerifier). */
  entropyId(verifier: EntropyIdVerifier): string {
    return verifier === 'ethereum-address-verifier' ? this.ethereum(0).address : this.solana(0).address
  }

  /** A 32-byte secret for one purpose, derived from the seed (see `purposeKey`); the caller wipes it. */
  purposeSecret(purpose: string): Uint8Array {
    return purposeKey(this.seed, purpose)
  }

  /** Signs an owner message (src/wire/custody.ts) with the index-0 key of the verifier's chain. */
  signOwner(verifier: EntropyIdVerifier, message: string): Promise<string> {
    return signOwnerWith(this, verifier, message)
  }

  /** Drops the seed and derived keys (best effort: JS cannot guarantee erasure). */
  wipe(): void {
    this.seed.fill(0)
    for (const k of this.sol.values()) k.secretKey.fill(0)
    this.eth.clear()
    this.sol.clear()
  }
}

/**
 * An imported root (spec part 2 section 3: 'a root wallet is imported or has index 0'): one
 * private key of one chain type, split into shares as a created root's entropy is. It has no
 * recovery phrase and only wallet 0; its entropy id is its own address.
 */
export class ImportedRoot {
  readonly imported = true
  private eth: PrivateKeyAccount | null = null
  private sol: SolanaKey | null = null
  constructor(
    readonly chainType: ChainType,
    private key: Uint8Array,
  ) {
    if (key.length !== IMPORTED_KEY_BYTES) throw new Error('An imported key has 32 bytes')
    if (chainType === 'ethereum') this.eth = privateKeyToAccount(toHex(key))
    else {
      const publicKey = ed25519.getPublicKey(key)
      this.sol = { address: base58.encode(publicKey), publicKey, secretKey: key, sign: (m) => ed25519.sign(m, key) }
    }
  }

  ethereum(index: number): PrivateKeyAccount {
    if (!this.eth || index !== 0) throw new RangeError('An imported wallet has only its own key.')
    return this.eth
  }

  solana(index: number): SolanaKey {
    if (!this.sol || index !== 0) throw new RangeError('An imported wallet has only its own key.')
    return this.sol
  }

  address(chainType: ChainType, index: number): string {
    return chainType === 'ethereum' ? this.ethereum(index).address : this.solana(index).address
  }

  entropyId(verifier: EntropyIdVerifier): string {
    return this.address(verifier === 'ethereum-address-verifier' ? 'ethereum' : 'solana', 0)
  }

  /** Signs an owner message (src/wire/custody.ts) with its own key. */
  signOwner(verifier: EntropyIdVerifier, message: string): Promise<string> {
    return signOwnerWith(this, verifier, message)
  }

  /** A 32-byte secret for one purpose, derived from the imported key (see `purposeKey`); the caller wipes it. */
  purposeSecret(purpose: string): Uint8Array {
    return purposeKey(this.key, purpose)
  }

  /** The raw 32-byte key (a copy: the caller wipes it). */
  privateKey(): Uint8Array {
    return Uint8Array.from(this.key)
  }

  wipe(): void {
    this.key.fill(0)
    this.eth = null
    this.sol = null
  }
}

/**
 * An owner signature: EIP-191 personal_sign by the Ethereum index-0 key, or ed25519 (base58) over
 * the UTF-8 message by the Solana index-0 key, as the root's verifier names.
 */
async function signOwnerWith(root: { ethereum(i: number): PrivateKeyAccount; solana(i: number): SolanaKey }, verifier: EntropyIdVerifier, message: string): Promise<string> {
  if (verifier === 'ethereum-address-verifier') return root.ethereum(0).signMessage({ message })
  return base58.encode(root.solana(0).sign(new TextEncoder().encode(message)))
}

/**
 * A key for one purpose other than the chains' HD paths (the Farcaster signer), derived from the
 * root's secret with HKDF-SHA256 under a salt of its own and the purpose as `info`: a different
 * purpose or a different root gives an unrelated key, and nothing derived this way reveals the
 * root. It is rebuilt wherever the root is (another device, a recovery), so it needs no storage.
 */
export function purposeKey(ikm: Uint8Array, purpose: string): Uint8Array {
  return hkdf(sha256, ikm, new TextEncoder().encode('portico purpose key v1'), new TextEncoder().encode(purpose), 32)
}

/** An imported key's size: an Ethereum secp256k1 scalar or a Solana ed25519 seed. */
export const IMPORTED_KEY_BYTES = 32

/** What the frame unlocks: an HD root or an imported key. */
export type WalletRoot = HdRoot | ImportedRoot

/**
 * The root a recombined secret is: 16 bytes are HD entropy (a created root), 32 bytes an
 * imported key of the verifier's chain.
 */
export async function rootFromSecret(secret: Uint8Array, verifier: EntropyIdVerifier): Promise<WalletRoot> {
  if (secret.length === ENTROPY_BYTES) return HdRoot.fromEntropy(secret)
  if (secret.length === IMPORTED_KEY_BYTES) return new ImportedRoot(verifier === 'ethereum-address-verifier' ? 'ethereum' : 'solana', Uint8Array.from(secret))
  throw new Error('Unknown wallet secret')
}

function checkIndex(index: number) {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) throw new RangeError('A negative walletIndex is invalid.')
}

export const verifierFor = (chainType: ChainType): EntropyIdVerifier =>
  chainType === 'ethereum' ? 'ethereum-address-verifier' : 'solana-address-verifier'

/** Whether `entropy` is the root named by `entropyId` (a tampered or foreign share rebuilds another root). */
export async function matchesEntropyId(root: WalletRoot, entropyId: string, verifier: EntropyIdVerifier): Promise<boolean> {
  const id = root.entropyId(verifier)
  return verifier === 'ethereum-address-verifier' ? id.toLowerCase() === entropyId.toLowerCase() : id === entropyId
}
