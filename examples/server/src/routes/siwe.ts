import { getAddress, isAddress, verifyMessage, type Hex } from 'viem'
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import type { Api, ServerCtx } from '../context'
import { errors } from '../errors'
import { allowedHosts, consumeNonce } from '../nonces'
import { registerWalletFlow } from './wallet-flow'

function normalise(address: string): string {
  if (!isAddress(address, { strict: false })) throw new Error('bad address')
  return address.toLowerCase()
}

function chainIdOf(v: unknown, fallback?: number): string | null {
  if (typeof v === 'string' && /^eip155:\d+$/.test(v)) return v
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) return `eip155:${Number(v)}`
  return fallback ? `eip155:${fallback}` : null
}

/**
 * Sign-In with Ethereum (EIP-4361): /siwe/{init,authenticate,link,unlink,transfer}.
 * Checks the domain (the app's allowed origins' hosts), the nonce (single use, issued for
 * that address, 10 minutes), expiration / not-before, then the signature (viem).
 * Ethereum wallets are not transferable: a conflict answers linked_to_another_user.
 */
export function registerSiwe(api: Api, ctx: ServerCtx) {
  registerWalletFlow(api, ctx, {
    base: '/siwe',
    kind: 'siwe',
    normaliseAddress: normalise,
    identifier: (a) => `ethereum:${a.toLowerCase()}`,
    async verify(c, app, b) {
      const message = b.message as string
      let parsed: ReturnType<typeof parseSiweMessage>
      try {
        parsed = parseSiweMessage(message)
      } catch {
        throw errors.invalidCredentials('Invalid SIWE message')
      }
      if (!parsed.address || !parsed.nonce || !parsed.domain || !parsed.uri || parsed.version !== '1') {
        throw errors.invalidCredentials('Invalid SIWE message')
      }
      if (!allowedHosts(app.allowedOrigins).includes(parsed.domain)) {
        throw errors.invalidCredentials('SIWE message domain is not allowed for this app')
      }
      if (!validateSiweMessage({ message: parsed, time: new Date() })) {
        throw errors.invalidCredentials('SIWE message is expired or not yet valid')
      }
      const address = parsed.address.toLowerCase()
      if (!(await consumeNonce(ctx.store, { appId: app.id, kind: 'siwe', subject: address, nonce: parsed.nonce }))) {
        throw errors.invalidCredentials('Invalid or expired nonce')
      }
      let ok = false
      try {
        ok = await verifyMessage({ address: parsed.address, message, signature: b.signature as Hex })
      } catch {
        ok = false
      }
      if (!ok) throw errors.invalidCredentials('Invalid signature')
      const checksummed = getAddress(parsed.address)
      return {
        type: 'wallet',
        identifier: `ethereum:${address}`,
        data: {
          address: checksummed,
          chain_type: 'ethereum',
          chain_id: chainIdOf(b.chainId, parsed.chainId),
          wallet_client_type: (b.walletClientType as string) ?? null,
          connector_type: (b.connectorType as string) ?? null,
          imported: false,
          delegated: false,
          recovery_method: null,
          wallet_index: null,
        },
        transferable: false,
        linkMethod: 'siwe',
        displayName: checksummed,
      }
    },
  })
}
