/**
 * Coinbase Wallet's provider and sign-in, loaded when the user picks it (or the host asks for
 * the provider): the SDK (./sdk.ts) and the SIWE session over it (`createSiweSession`).
 */
import type { PluginContext } from 'portico'
import type { Eip1193Like } from 'portico/kits/wallet'
import { createSiweSession, SIWE_TEXTS } from 'portico/plugins/siwe'
import type { CoinbaseWalletOptions } from './index'
import { coinbaseProvider } from './sdk'

export function createProvider(ctx: PluginContext, options: CoinbaseWalletOptions, preference: NonNullable<CoinbaseWalletOptions['preference']>): Eip1193Like {
  return coinbaseProvider({
    appName: options.appName ?? ctx.config.name,
    appLogoUrl: options.appLogoUrl ?? (typeof ctx.config.appearance.logo === 'string' ? ctx.config.appearance.logo : null),
    appChainIds: ctx.config.supportedChains.map((c) => c.id),
    preference,
    keysUrl: options.keysUrl,
  })
}

export function createSession(ctx: PluginContext, options: CoinbaseWalletOptions, provider: Eip1193Like, walletClientType: string) {
  return createSiweSession(provider as never, ctx.api, {
    walletClientType,
    connectorType: 'coinbase_wallet',
    mode: () => (options.disableSignup ? 'no-signup' : 'login-or-sign-up'),
    requestTimeoutMs: options.requestTimeoutMs,
    statement: () => options.statement ?? ctx.texts(SIWE_TEXTS, 'siwe').statement,
    chains: () => ({ supported: ctx.config.supportedChains.map((c) => c.id), defaultId: ctx.config.defaultChain.id }),
  })
}
