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
import { toHex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { ethereumPath, solanaPath, type ChainType, type EntropyIdVerifier } from '../../../plugins/embedded-wallet/protocol'

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

  /** Drops the seed and derived keys (best effort: JS cannot guarantee erasure). */
  wipe(): void {
    this.seed.fill(0)
    for (const k of this.sol.values()) k.secretKey.fill(0)
    this.eth.clear()
    this.sol.clear()
  }
}

function checkIndex(index: number) {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) throw new RangeError('A negative walletIndex is invalid.')
}

export const verifierFor = (chainType: ChainType): EntropyIdVerifier =>
  chainType === 'ethereum' ? 'ethereum-address-verifier' : 'solana-address-verifier'

/** Whether `entropy` is the root named by `entropyId` (a tampered or foreign share rebuilds another root). */
export async function matchesEntropyId(root: HdRoot, entropyId: string, verifier: EntropyIdVerifier): Promise<boolean> {
  const id = root.entropyId(verifier)
  return verifier === 'ethereum-address-verifier' ? id.toLowerCase() === entropyId.toLowerCase() : id === entropyId
}
