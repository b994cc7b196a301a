import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { allowedHosts, checkIssuedAt, checkUri, consumeNonce } from '../../nonces'
import { parseSiwsMessage } from './siws-message'
import { walletAccount, type WalletFlow } from './flow'

function normalise(address: string): string {
  const a = address.trim()
  if (base58.decode(a).length !== 32) throw new Error('bad address')
  return a
}

/**
 * Sign-In With Solana: /siws/{init,authenticate,link,unlink,transfer}. Message format in
 * siws-message.ts; signature is base64 of the 64-byte ed25519 signature over the UTF-8
 * message. Solana wallets are transferable (account_transfer_required on conflict).
 */
export function siwsFlow(ctx: ServerCtx): WalletFlow {
  return {
    base: '/siws',
    kind: 'siws',
    normaliseAddress: normalise,
    identifier: (a) => `solana:${a}`,
    async verify(c, app, b) {
      const message = b.message as string
      const m = parseSiwsMessage(message)
      if (!m || !m.nonce || !m.uri || m.version !== '1') throw errors.invalidCredentials('Invalid SIWS message')
      let address: string
      try {
        address = normalise(m.address)
      } catch {
        throw errors.invalidCredentials('Invalid SIWS message address')
      }
      if (!allowedHosts(app.allowedOrigins).includes(m.domain)) {
        throw errors.invalidCredentials('SIWS message domain is not allowed for this app')
      }
      checkUri(m.uri, app.allowedOrigins, 'SIWS')
      checkIssuedAt(m.issuedAt ? new Date(m.issuedAt) : undefined, 'SIWS')
      const t = Date.now()
      if (m.expirationTime && !(Date.parse(m.expirationTime) > t)) throw errors.invalidCredentials('SIWS message is expired')
      if (m.notBefore && !(Date.parse(m.notBefore) <= t)) throw errors.invalidCredentials('SIWS message is not yet valid')
      if (!(await consumeNonce(ctx.store, { appId: app.id, kind: 'siws', subject: address, nonce: m.nonce }))) {
        throw errors.invalidCredentials('Invalid or expired nonce')
      }
      let ok = false
      try {
        const sig = Buffer.from(b.signature as string, 'base64')
        ok = sig.length === 64 && ed25519.verify(sig, new TextEncoder().encode(message), base58.decode(address))
      } catch {
        ok = false
      }
      if (!ok) throw errors.invalidCredentials('Invalid signature')
      return walletAccount({ chain: 'solana', identifier: `solana:${address}`, address, chainId: null, transferable: true, linkMethod: 'siws' }, b)
    },
  }
}
