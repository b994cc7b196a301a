/**
 * A real WalletConnect wallet for tests (Node): `@walletconnect/sign-client` over a relay
 * (the stand-in), approving session proposals for a viem private-key account and answering
 * `personal_sign` with its signature (or a refusal). Used by test/walletconnect and the
 * Chromium spec test/e2e/walletconnect.spec.ts.
 */
import { SignClient } from '@walletconnect/sign-client'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

/** sign-client's key-value storage in memory. */
export function memoryStore() {
  const m = new Map<string, unknown>()
  return {
    getKeys: async () => [...m.keys()],
    getEntries: async <T,>() => [...m.entries()] as [string, T][],
    getItem: async <T,>(k: string) => m.get(k) as T | undefined,
    setItem: async (k: string, v: unknown) => void m.set(k, v),
    removeItem: async (k: string) => void m.delete(k),
  }
}

export interface TestWallet {
  address: string
  requests: { method: string; at: number }[]
  approvedAt: number
  deleted: string[]
  pair(uri: string): Promise<void>
  /** Refuse the next personal_sign with this code. */
  rejectNext(code: number): void
  client: Awaited<ReturnType<typeof SignClient.init>>
  close(): Promise<void>
}

let walletNo = 0
export async function startWallet(relayUrl: string, name = 'Portico Test Wallet', opts: { approve?: boolean; privateKey?: Hex } = {}): Promise<TestWallet> {
  const account = privateKeyToAccount(opts.privateKey ?? generatePrivateKey())
  const client = await SignClient.init({
    projectId: 'portico-test-wallet',
    relayUrl,
    customStoragePrefix: `test-wallet-${process.pid}-${++walletNo}`,
    storage: memoryStore() as never,
    telemetryEnabled: false,
    logger: 'silent',
    metadata: { name, description: name, url: 'https://wallet.portico.test', icons: [] },
  })
  let reject: number | null = null
  const w: TestWallet = {
    address: account.address,
    requests: [],
    approvedAt: 0,
    deleted: [],
    client,
    pair: (uri) => client.pair({ uri }).then(() => {}),
    rejectNext: (code) => void (reject = code),
    close: () => client.core.relayer.transportClose().catch(() => {}),
  }
  client.on('session_proposal', async ({ id, params }) => {
    if (opts.approve === false) return
    const chains = params.optionalNamespaces.eip155?.chains ?? ['eip155:1']
    const { acknowledged } = await client.approve({
      id,
      namespaces: {
        eip155: { accounts: chains.map((c) => `${c}:${account.address}`), chains, methods: params.optionalNamespaces.eip155.methods, events: ['accountsChanged', 'chainChanged'] },
      },
    })
    await acknowledged()
    w.approvedAt = Date.now()
  })
  client.on('session_request', async ({ id, topic, params }) => {
    w.requests.push({ method: params.request.method, at: Date.now() })
    if (reject !== null) {
      const code = reject
      reject = null
      await client.respond({ topic, response: { id, jsonrpc: '2.0', error: { code, message: 'User rejected.' } } })
      return
    }
    const [hex] = params.request.params as [Hex, string]
    const signature = await account.signMessage({ message: { raw: hex } })
    await client.respond({ topic, response: { id, jsonrpc: '2.0', result: signature } })
  })
  client.on('session_delete', ({ topic }) => void w.deleted.push(topic))
  return w
}

