/**
 * A test Ethereum wallet for browser tests: an EIP-1193 provider in the page, announced by
 * EIP-6963, whose accounts and signatures come from a viem private-key account in Node
 * (through `page.exposeFunction`). Rejections (code 4001) can be scheduled from the test.
 */
import type { Page } from 'playwright-core'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { createWalletClient, defineChain, http, type Hex } from 'viem'

export interface TestEthereumWalletOptions {
  /** Default: a fixed test key (hardhat's account #1). */
  privateKey?: Hex
  chainId?: number
  name?: string
  rdns?: string
  uuid?: string
  /**
   * A JSON-RPC URL (e.g. a hardhat node): reads are forwarded to it and `eth_sendTransaction`
   * is signed by the account and sent there; `wallet_switchEthereumChain` is accepted.
   */
  rpc?: string
  /**
   * The account the wallet reports, when it is not the key's own address: a smart-contract
   * account (ERC-1271 / ERC-6492) whose signatures `sign` makes.
   */
  address?: `0x${string}`
  /** Signs a personal_sign payload (hex of the message bytes). Default: the key's EIP-191 signature. */
  sign?: (data: Hex) => Promise<Hex>
  /**
   * How the page finds the wallet: 'eip6963' (default: announced), or 'coinbaseWalletExtension'
   * (where the Coinbase Wallet extension puts its provider; `@coinbase/wallet-sdk` uses it).
   */
  inject?: 'eip6963' | 'coinbaseWalletExtension'
}

export interface TestEthereumWallet {
  account: PrivateKeyAccount
  address: `0x${string}`
  /** Reject the next `n` signature requests with code 4001. */
  rejectSignatures(n?: number): void
  /** Reject the next `n` account requests with code 4001. */
  rejectConnections(n?: number): void
  /** Reject the next `n` transaction requests with code 4001. */
  rejectTransactions(n?: number): void
  /** Hashes of the transactions sent (with the `rpc` option). */
  sent: string[]
  /** Methods the page asked for, in order. */
  requests: string[]
  /** Messages signed. */
  signed: string[]
}

/** hardhat's second default account: a well-known test key, never a real one. */
export const TEST_ETH_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

/** Page side: plain JavaScript (no imports, no transpiler helpers), run by addInitScript. */
const PAGE_SCRIPT = String.raw`(function (o) {
  var w = window;
  function rpcError(e) {
    var err = new Error(e.message);
    err.code = e.code;
    return err;
  }
  var provider = {
    isPorticoTestWallet: true,
    request: async function (args) {
      var method = args && args.method;
      var params = (args && args.params) || [];
      var reply = await w[o.binding]({ method: method, params: params });
      if (reply && reply.error) throw rpcError(reply.error);
      return reply.result;
    },
    on: function () { return provider; },
    removeListener: function () { return provider; },
  };
  if (o.inject === 'coinbaseWalletExtension') {
    provider.isCoinbaseWallet = true;
    provider.setAppInfo = function () {};
    provider.disconnect = async function () {};
    w.coinbaseWalletExtension = provider;
    return;
  }
  var detail = Object.freeze({
    info: Object.freeze({ uuid: o.uuid, name: o.name, icon: o.icon, rdns: o.rdns }),
    provider: provider,
  });
  function announce() {
    w.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: detail }));
  }
  w.addEventListener('eip6963:requestProvider', announce);
  announce();
})`

const ICON =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="32" height="32" rx="8" fill="#f6851b"/></svg>',
  ).toString('base64')

/** Install the wallet in `page` before its scripts run. Call before `page.goto`. */
export async function installEthereumWallet(page: Page, options: TestEthereumWalletOptions = {}): Promise<TestEthereumWallet> {
  const account = privateKeyToAccount(options.privateKey ?? TEST_ETH_KEY)
  const address = options.address ?? account.address
  const sign = options.sign ?? ((data: Hex) => account.signMessage({ message: { raw: data } }))
  let chainId = options.chainId ?? 1
  let rejectSign = 0
  let rejectTx = 0
  const sent: string[] = []
  const forward = async (method: string, params: unknown[]) => {
    const res = await fetch(options.rpc!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    const json = (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
    return json.error ? { error: json.error } : { result: json.result }
  }
  let rejectConnect = 0
  const requests: string[] = []
  const signed: string[] = []
  const binding = `__porticoTestEthereumWallet_${(options.uuid ?? 'portico-test-wallet-1').replace(/[^a-zA-Z0-9]/g, '_')}`
  const rejected = { error: { code: 4001, message: 'User rejected the request.' } }
  await page.exposeFunction(binding, async ({ method, params }: { method: string; params: unknown[] }) => {
    requests.push(method)
    switch (method) {
      case 'eth_requestAccounts':
        if (rejectConnect > 0) {
          rejectConnect--
          return rejected
        }
        return { result: [address] }
      case 'eth_accounts':
        return { result: [address] }
      case 'eth_chainId':
        return { result: `0x${chainId.toString(16)}` }
      case 'personal_sign': {
        if (rejectSign > 0) {
          rejectSign--
          return rejected
        }
        const data = params[0] as Hex
        const from = String(params[1] ?? '').toLowerCase()
        if (from !== address.toLowerCase()) return { error: { code: 4100, message: 'Unknown account' } }
        signed.push(Buffer.from(data.slice(2), 'hex').toString('utf8'))
        return { result: await sign(data) }
      }
      case 'wallet_switchEthereumChain':
        if (options.rpc) {
          chainId = Number((params[0] as { chainId: string }).chainId)
          return { result: null }
        }
        return Number((params[0] as { chainId?: string })?.chainId) === chainId
          ? { result: null }
          : { error: { code: 4902, message: 'Unrecognized chain' } }
      case 'eth_sendTransaction': {
        if (!options.rpc) break
        if (rejectTx > 0) {
          rejectTx--
          return rejected
        }
        const tx = params[0] as { to: Hex; value?: Hex; data?: Hex }
        const real = Number((await forward('eth_chainId', [])).result)
        const client = createWalletClient({ account, chain: defineChain({ id: real, name: 'rpc', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [options.rpc] } } }), transport: http(options.rpc) })
        try {
          const hash = await client.sendTransaction({ to: tx.to, value: tx.value ? BigInt(tx.value) : undefined, data: tx.data })
          sent.push(hash)
          return { result: hash }
        } catch (e) {
          return { error: { code: -32000, message: (e as Error).message.split('\n')[0] } }
        }
      }
    }
    if (options.rpc && !['eth_requestAccounts', 'eth_accounts', 'eth_chainId', 'personal_sign'].includes(method)) return forward(method, params)
    return { error: { code: 4200, message: `The test wallet does not support ${method}` } }
  })
  const pageOptions = {
    binding,
    uuid: options.uuid ?? 'portico-test-wallet-1',
    name: options.name ?? 'MetaMask',
    rdns: options.rdns ?? 'io.metamask',
    icon: ICON,
    inject: options.inject ?? 'eip6963',
  }
  await page.addInitScript({ content: `${PAGE_SCRIPT}(${JSON.stringify(pageOptions)});` })
  return {
    account,
    address,
    rejectSignatures: (n = 1) => void (rejectSign += n),
    rejectConnections: (n = 1) => void (rejectConnect += n),
    rejectTransactions: (n = 1) => void (rejectTx += n),
    sent,
    requests,
    signed,
  }
}
