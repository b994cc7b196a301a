/**
 * The spec's wallet brands (part 1 section 3) as wallet client types: what a login remembers
 * as the recent wallet and sends as `walletClientType`.
 */

/** Brands the spec lists (part 1 section 3), by EIP-6963 reverse-DNS id. */
const RDNS_CLIENT_TYPES: Record<string, string> = {
  'io.metamask': 'metamask',
  'io.metamask.flask': 'metamask',
  'io.metamask.mobile': 'metamask',
  'com.coinbase.wallet': 'coinbase_wallet',
  'me.rainbow': 'rainbow',
  'app.phantom': 'phantom',
  'io.zerion.wallet': 'zerion',
  'com.brave.wallet': 'brave_wallet',
  'org.uniswap.app': 'uniswap',
  'com.okex.wallet': 'okx_wallet',
  'io.rabby': 'rabby_wallet',
  'global.safe': 'safe',
  'io.universaleverything.universalprofile': 'universal_profile',
  'com.bybit': 'bybit_wallet',
}

/** Name fragments of the same brands, for wallets without a known rdns. */
const NAME_CLIENT_TYPES: [RegExp, string][] = [
  [/coinbase smart wallet/i, 'coinbase_smart_wallet'],
  [/coinbase/i, 'coinbase_wallet'],
  [/metamask/i, 'metamask'],
  [/phantom/i, 'phantom'],
  [/rainbow/i, 'rainbow'],
  [/walletconnect|wallet connect/i, 'wallet_connect'],
  [/zerion/i, 'zerion'],
  [/brave/i, 'brave_wallet'],
  [/uniswap/i, 'uniswap'],
  [/okx/i, 'okx_wallet'],
  [/rabby/i, 'rabby_wallet'],
  [/^safe\b/i, 'safe'],
  [/universal profile/i, 'universal_profile'],
  [/bybit/i, 'bybit_wallet'],
]

/** The wallet client type of a discovered provider: from its rdns, else its name ('unknown' if empty). */
export function walletClientTypeOf(info: { name: string; rdns?: string }): string {
  const byRdns = RDNS_CLIENT_TYPES[info.rdns?.toLowerCase?.() ?? '']
  if (byRdns) return byRdns
  for (const [re, type] of NAME_CLIENT_TYPES) if (re.test(info.name ?? '')) return type
  const slug = (info.name ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
  return slug || 'unknown'
}
