/** wallets:import's key parsing (frame side): what is accepted and what is refused with the frame's text. */
import { describe, expect, it } from 'vitest'
import { base58 } from '@scure/base'
import { ed25519 } from '@noble/curves/ed25519.js'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { parseImportedKey } from '../frame/import-key'
import { FRAME_TEXTS } from '../frame/context'
import { ImportedRoot, rootFromSecret } from '../frame/keys'

describe('parseImportedKey', () => {
  it('Ethereum: 0x-hex or bare hex of a valid secp256k1 scalar; the imported root has the same address', async () => {
    const pk = generatePrivateKey()
    const key = parseImportedKey('ethereum', pk)
    expect(new ImportedRoot('ethereum', key).address('ethereum', 0)).toBe(privateKeyToAccount(pk).address)
    expect([...parseImportedKey('ethereum', ` ${pk.slice(2)} `)]).toEqual([...key])
    // 32 bytes recombined are an imported key of the verifier's chain, not HD entropy.
    const root = await rootFromSecret(key, 'ethereum-address-verifier')
    expect(root.address('ethereum', 0)).toBe(privateKeyToAccount(pk).address)
    expect(() => root.ethereum(1)).toThrow()
  })

  it('Ethereum: refuses other lengths, non-hex, zero and the group order', () => {
    for (const bad of ['', '0x12', `0x${'g'.repeat(64)}`, `0x${'0'.repeat(64)}`, '0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141', 42 as never]) {
      expect(() => parseImportedKey('ethereum', bad)).toThrow(FRAME_TEXTS.invalidEthereumKey)
    }
  })

  it('Solana: base58 64-byte secret key, its 32-byte seed, or the solana-keygen JSON array', () => {
    const seed = ed25519.utils.randomSecretKey()
    const full = new Uint8Array([...seed, ...ed25519.getPublicKey(seed)])
    const address = base58.encode(ed25519.getPublicKey(seed))
    for (const form of [base58.encode(full), base58.encode(seed), JSON.stringify([...full])]) {
      expect(new ImportedRoot('solana', parseImportedKey('solana', form)).address('solana', 0)).toBe(address)
    }
  })

  it('Solana: refuses a secret key whose public half does not match, bad base58 and bad arrays', () => {
    const seed = ed25519.utils.randomSecretKey()
    const wrong = new Uint8Array([...seed, ...ed25519.getPublicKey(ed25519.utils.randomSecretKey())])
    for (const bad of [base58.encode(wrong), '0OIl', base58.encode(new Uint8Array(40)), '[1,2,300]', '["a"]']) {
      expect(() => parseImportedKey('solana', bad)).toThrow(FRAME_TEXTS.invalidSolanaKey)
    }
  })
})
