import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { isPorticoError } from 'portico'
import { linkedSmartWallet, parseSmartWalletConfig, smartWallet } from './index'
import { SMART_WALLET_TEXTS } from './strings'
import { toAccountOfKind } from './client'
import { createPublicClient, custom, type PublicClient } from 'viem'
import { entryPoint06Address, entryPoint07Address } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'

pluginContract(() => smartWallet())

const SW = '0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a'
const account = { type: 'smart_wallet', address: SW, smart_wallet_type: 'safe', verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }

describe('smartWallet()', () => {
  it("declares 'smart_wallet' with the spec's display name 'smart wallet' and fills user.smartWallet", async () => {
    const t = await createTestKernel({ plugins: [smartWallet()] })
    const m = t.kernel.methods.get('smart_wallet')!
    expect(m).toMatchObject({ displayName: 'smart wallet', accountTypes: ['smart_wallet'], userField: 'smartWallet' })
    expect(SMART_WALLET_TEXTS.displayName).toBe('smart wallet')
    await t.kernel.completeLogin({ user: wireUser({ accounts: [account] }), token: 't', refresh_token: 'r', identity_token: null, session_update_action: 'set', is_new_user: false } as never, { method: 'email' })
    const user = t.kernel.session.user!
    expect(user.smartWallet).toMatchObject({ type: 'smart_wallet', address: SW, smartWalletType: 'safe' })
    expect(linkedSmartWallet(user)).toBe(SW)
    expect(linkedSmartWallet(null)).toBeNull()
  })

  it('reads GET /apps/{appId}/smart_wallets: CAIP-2 chain ids to numbers, absent fields to null', () => {
    expect(
      parseSmartWalletConfig({
        enabled: true,
        smart_wallet_type: 'safe',
        smart_wallet_version: '1.4.1',
        configured_networks: [{ chain_id: 'eip155:8453', bundler_url: 'https://b.example', paymaster_url: 'https://p.example', paymaster_context: { policy: 'x' } }, { chain_id: 'eip155:10', bundler_url: 'https://b2.example' }],
      }),
    ).toEqual({
      enabled: true,
      type: 'safe',
      version: '1.4.1',
      networks: [
        { chainId: 8453, bundlerUrl: 'https://b.example', paymasterUrl: 'https://p.example', paymasterContext: { policy: 'x' } },
        { chainId: 10, bundlerUrl: 'https://b2.example', paymasterUrl: null, paymasterContext: null },
      ],
    })
    expect(parseSmartWalletConfig({ enabled: false })).toEqual({ enabled: false, type: null, version: null, networks: [] })
  })

  it("getClient: 'Smart wallets are not enabled for this app.' when the config says so; a chain outside the networks is named", async () => {
    const t = await createTestKernel({ plugins: [smartWallet()] })
    let calls = 0
    t.net.on('GET', /\/smart_wallets$/, () => (calls++, { enabled: false }))
    const off = await t.kernel.plugin('smart-wallet').getClient().catch((e: unknown) => e)
    expect(isPorticoError(off) && off.code).toBe('smart_wallets_not_enabled')
    expect((off as Error).message).toBe('Smart wallets are not enabled for this app.')
    await t.kernel.plugin('smart-wallet').config()
    expect(calls).toBe(1)

    const t2 = await createTestKernel({ plugins: [smartWallet()] })
    t2.net.on('GET', /\/smart_wallets$/, { enabled: true, smart_wallet_type: 'safe', configured_networks: [{ chain_id: 'eip155:8453', bundler_url: 'https://b.example' }] })
    const wrong = await t2.kernel.plugin('smart-wallet').getClient({ chainId: 10 }).catch((e: unknown) => e)
    expect((wrong as Error).message).toBe('Chain 10 is not one of this app’s smart-wallet networks.')
    // No embedded wallet plugin: the client says what it needs.
    const none = await t2.kernel.plugin('smart-wallet').getClient().catch((e: unknown) => e)
    expect((none as Error).message).toBe('A smart wallet needs an embedded Ethereum wallet first.')
  })
})

describe('account kinds (the app config’s type), without a chain', () => {
  const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
  const ADDRESS = '0x1111111111111111111111111111111111111111' as const
  // A chain that answers only eth_chainId and eth_getCode: with the address known, building an account needs nothing else.
  const client = createPublicClient({
    transport: custom({
      request: async ({ method }: { method: string }) => {
        if (method === 'eth_chainId') return '0x7a69'
        if (method === 'eth_getCode') return '0x'
        throw new Error(`unexpected read ${method}`)
      },
    }),
  }) as PublicClient
  const kinds = [
    ['safe', entryPoint07Address],
    ['kernel', entryPoint07Address],
    ['light_account', entryPoint07Address],
    // Coinbase Smart Wallet 1.1 is an EntryPoint v0.6 account (viem's toCoinbaseSmartAccount).
    ['coinbase_smart_wallet', entryPoint06Address],
  ] as const

  it.each(kinds)('%s: owned by the embedded wallet, on its EntryPoint; one call and a batch encode differently', async (kind, entryPoint) => {
    const account = await toAccountOfKind(kind, { client, owner, version: null, contracts: { [kind]: { address: ADDRESS } }, texts: () => SMART_WALLET_TEXTS, format: (s) => s })
    expect(account.address).toBe(ADDRESS)
    expect(account.entryPoint.address).toBe(entryPoint)
    const { factory, factoryData } = await account.getFactoryArgs()
    expect(factory).toMatch(/^0x[0-9a-fA-F]{40}$/)
    // The owner is in the account's initialisation: the embedded wallet owns it.
    expect(factoryData!.toLowerCase()).toContain(owner.address.slice(2).toLowerCase())
    const one = await account.encodeCalls([{ to: ADDRESS, value: 1n, data: '0x1234' }])
    const two = await account.encodeCalls([
      { to: ADDRESS, value: 1n, data: '0x1234' },
      { to: owner.address, value: 0n, data: '0xabcd' },
    ])
    expect(two).not.toBe(one)
    expect(two.toLowerCase()).toContain('abcd')
  })

  it("a kind the client does not build: 'Smart wallet type {type} is not supported by this client.'", async () => {
    await expect(toAccountOfKind('argent', { client, owner, version: null, texts: () => SMART_WALLET_TEXTS, format: (s, v) => s.replace('{type}', String(v?.type)) })).rejects.toThrow(
      'Smart wallet type argent is not supported by this client.',
    )
  })
})
