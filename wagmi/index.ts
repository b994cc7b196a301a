/**
 * portico/wagmi — the logged-in user's wallets as one wagmi connector: the external wallets
 * connected now and linked to the user (from `portico/kits/wallet`: siwe, Coinbase Wallet
 * ...) and, when the embedded-wallet plugin is on, the user's embedded Ethereum wallets. wagmi
 * reads their accounts and signs through each wallet's own EIP-1193 provider, so host code
 * treats external and embedded wallets alike.
 *
 * ```ts
 * import { createConfig, http, connect } from '@wagmi/core'
 * import { mainnet } from 'viem/chains'
 * import { porticoConnector } from 'portico/wagmi'
 *
 * const config = createConfig({ chains: [mainnet], connectors: [porticoConnector({ kernel })], transports: { [mainnet.id]: http() } })
 * await connect(config, { connector: config.connectors[0] })   // after the user logged in
 * ```
 *
 * `@wagmi/core` (2.x) is an optional peer; this entry imports nothing else at module load.
 */
import { createConnector } from '@wagmi/core'
import type { Address } from 'viem'
import { PorticoError, type Portico } from 'portico'
import { CONNECTORS_CHANGED, connectedWallets, providerError, type Eip1193Like } from 'portico/kits/wallet'

export interface PorticoConnectorOptions {
  kernel: Portico
  /** Include the user's embedded wallets (default true; needs the embedded-wallet plugin). */
  embedded?: boolean
  /** Include the external wallets connected now and linked to the user (default true). */
  external?: boolean
}

/** One of the user's Ethereum wallets as the connector sees it. */
export interface PorticoWagmiWallet {
  address: Address
  kind: 'external' | 'embedded'
  walletClientType: string
  getEthereumProvider(): Promise<Eip1193Like>
}

interface EmbeddedLike {
  address: string
  chainType?: string
  walletClientType?: string
  getEthereumProvider?: () => Promise<unknown> | unknown
}

/** The logged-in user's Ethereum wallets, external first (none when logged out). */
export function userEthereumWallets(kernel: Portico, options: Pick<PorticoConnectorOptions, 'embedded' | 'external'> = {}): PorticoWagmiWallet[] {
  if (!kernel.session.authenticated) return []
  const out: PorticoWagmiWallet[] = []
  const seen = new Set<string>()
  const add = (w: PorticoWagmiWallet) => {
    const key = w.address.toLowerCase()
    if (seen.has(key)) return
    seen.add(key)
    out.push(w)
  }
  if (options.external !== false) {
    for (const w of connectedWallets(kernel)) {
      if (w.chainType !== 'ethereum' || !w.linked || !w.getEthereumProvider) continue
      add({ address: w.address as Address, kind: 'external', walletClientType: w.walletClientType, getEthereumProvider: w.getEthereumProvider })
    }
  }
  if (options.embedded !== false) {
    let embedded: { wallets?: () => EmbeddedLike[] } | undefined
    try {
      embedded = kernel.plugin<{ wallets?: () => EmbeddedLike[] } | undefined>('embedded-wallet')
    } catch {
      embedded = undefined
    }
    for (const w of embedded?.wallets?.() ?? []) {
      if ((w.chainType ?? 'ethereum') !== 'ethereum' || !w.getEthereumProvider) continue
      const get = w.getEthereumProvider
      add({
        address: w.address as Address,
        kind: 'embedded',
        walletClientType: w.walletClientType ?? 'privy',
        getEthereumProvider: async () => (await get.call(w)) as Eip1193Like,
      })
    }
  }
  return out
}

const SIGNER_ARG: Record<string, (params: unknown[]) => unknown> = {
  personal_sign: (p) => p[1],
  eth_sign: (p) => p[0],
  eth_signTypedData: (p) => p[0],
  eth_signTypedData_v3: (p) => p[0],
  eth_signTypedData_v4: (p) => p[0],
  eth_sendTransaction: (p) => (p[0] as { from?: string } | undefined)?.from,
  eth_signTransaction: (p) => (p[0] as { from?: string } | undefined)?.from,
}

/**
 * The wagmi connector over the user's wallets. Accounts are the wallets' addresses (the first
 * is wagmi's active account); a signing request goes to the wallet whose address it names,
 * anything else to the first wallet's provider. Logged out, it has no accounts and `connect`
 * fails with `must_be_authenticated`.
 */
export function porticoConnector(options: PorticoConnectorOptions) {
  const { kernel } = options
  type Provider = Eip1193Like
  return createConnector<Provider>((config) => {
    let chainId = config.chains[0].id
    let listening = false
    const wallets = () => userEthereumWallets(kernel, options)
    const accounts = () => wallets().map((w) => w.address)
    let last = ''
    const onChange = () => {
      const next = accounts()
      const key = next.join(',')
      if (key === last) return
      last = key
      if (next.length === 0) config.emitter.emit('disconnect')
      else config.emitter.emit('change', { accounts: next })
    }
    const listen = () => {
      if (listening) return
      listening = true
      last = accounts().join(',')
      kernel.events.on(CONNECTORS_CHANGED, onChange)
      kernel.events.on('user', onChange)
    }
    const provider: Provider = {
      async request({ method, params }) {
        const list = Array.isArray(params) ? params : []
        const all = wallets()
        switch (method) {
          case 'eth_accounts':
          case 'eth_requestAccounts':
            return all.map((w) => w.address)
          case 'eth_chainId':
            return `0x${chainId.toString(16)}`
          case 'wallet_switchEthereumChain': {
            const id = Number((list[0] as { chainId?: string } | undefined)?.chainId)
            if (!config.chains.some((c) => c.id === id)) throw providerError(4200, `Chain ${id} is not configured.`)
            chainId = id
            config.emitter.emit('change', { chainId })
            return null
          }
        }
        if (all.length === 0) throw providerError(4900)
        const pick = SIGNER_ARG[method]
        const signer = pick ? String(pick(list) ?? '').toLowerCase() : ''
        const wallet = (signer && all.find((w) => w.address.toLowerCase() === signer)) || all[0]
        if (signer && wallet.address.toLowerCase() !== signer) throw Object.assign(new Error(`Unknown account ${signer}`), { code: 4100 })
        return (await wallet.getEthereumProvider()).request({ method, params })
      },
    }
    return {
      id: 'portico',
      name: 'Portico',
      type: 'portico',
      async setup() {
        listen()
      },
      async connect(parameters) {
        listen()
        const list = accounts()
        if (!kernel.session.authenticated || list.length === 0) {
          throw new PorticoError('must_be_authenticated', 'Log in (and connect a wallet) before connecting wagmi to Portico.')
        }
        if (parameters?.chainId && config.chains.some((c) => c.id === parameters.chainId)) chainId = parameters.chainId
        return { accounts: list, chainId } as never
      },
      async disconnect() {
        kernel.events.off(CONNECTORS_CHANGED, onChange)
        kernel.events.off('user', onChange)
        listening = false
      },
      async getAccounts() {
        return accounts()
      },
      async getChainId() {
        return chainId
      },
      async getProvider() {
        return provider
      },
      async isAuthorized() {
        return kernel.session.authenticated && accounts().length > 0
      },
      async switchChain({ chainId: id }) {
        const chain = config.chains.find((c) => c.id === id)
        if (!chain) throw providerError(4200, `Chain ${id} is not configured.`)
        chainId = id
        config.emitter.emit('change', { chainId })
        return chain
      },
      onAccountsChanged(list) {
        if (list.length === 0) config.emitter.emit('disconnect')
        else config.emitter.emit('change', { accounts: list as Address[] })
      },
      onChainChanged(id) {
        chainId = Number(id)
        config.emitter.emit('change', { chainId })
      },
      onDisconnect() {
        config.emitter.emit('disconnect')
      },
    }
  })
}
