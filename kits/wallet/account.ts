/**
 * The wallet account types, declared once for every wallet plugin (contract v2: the plugin
 * that declares a type normalises it): `wallet` (external and embedded, Ethereum and Solana)
 * and `smart_wallet`, plus the user record's derived fields `wallet` (the first wallet) and
 * `delegatedWallets` (wallets with `delegated`).
 */
import {
  PorticoError,
  normaliseFields,
  type Api,
  type LinkedAccount,
  type MethodDescriptor,
  type SmartWalletAccount,
  type User,
  type WalletAccount,
  type WireAuthResponse,
  type WireLinkedAccountBase,
  type WireUser,
} from 'portico'
import { unlinkExternalWallet } from './calls'

/** The login method id the config lists and the landing entry has. */
export const WALLET_METHOD = 'wallet'

/** The wire fields of a `wallet` account (spec part 1 section 3). */
export const WALLET_FIELDS =
  'address:S chain_type:S chain_id:s wallet_client_type:s connector_type:s imported:b delegated:b recovery_method:s wallet_index:n'
/** The wire fields of a `smart_wallet` account. */
export const SMART_WALLET_FIELDS = 'address:s smart_wallet_type:s'

/** One raw `wallet` account as the user record has it; the chain type is 'ethereum' unless 'solana'. */
export function normaliseWallet(raw: WireLinkedAccountBase): WalletAccount {
  const account = normaliseFields<WalletAccount>(raw, WALLET_FIELDS)
  account.chainType = (raw as { chain_type?: unknown }).chain_type === 'solana' ? 'solana' : 'ethereum'
  // Embedded wallets (spec part 2 section 3) also carry their HD root's entropyId / entropyIdVerifier.
  const r = raw as { entropy_id?: unknown; entropy_id_verifier?: unknown }
  if (typeof r.entropy_id === 'string') Object.assign(account, { entropyId: r.entropy_id, entropyIdVerifier: typeof r.entropy_id_verifier === 'string' ? r.entropy_id_verifier : null })
  // A pre-generated wallet not claimed yet (issue 32): its recovery asks for the claim code.
  if ((raw as { claim_pending?: unknown }).claim_pending === true) Object.assign(account, { claimPending: true })
  return account
}

/** `user.wallet` (the first wallet account) and `user.delegatedWallets`. */
export function deriveWallets(user: User): void {
  const wallets = user.linkedAccounts.filter((a): a is WalletAccount => a.type === 'wallet')
  if (wallets[0]) user.wallet = wallets[0]
  else delete user.wallet
  user.delegatedWallets = wallets.filter((w) => w.delegated)
}

/** Whether an account is a wallet the user brought (not the provider's embedded wallet). */
export function isExternalWallet(account: LinkedAccount): account is WalletAccount {
  return account.type === 'wallet' && (account as WalletAccount).connectorType !== 'embedded'
}

/** The `wallet` method: the landing entry's id, the `wallet` account type and its unlink. */
export function walletDescriptor(): MethodDescriptor {
  return {
    id: WALLET_METHOD,
    displayName: 'wallet',
    accountTypes: ['wallet'],
    normalise: normaliseWallet,
    derive: deriveWallets,
    transferLabel: 'Wallet address',
    // The signature methods behind the entry (siwe, siws) answer their own transfers.
    linkMethods: [],
    unlink(api: Api, account: LinkedAccount) {
      if (!isExternalWallet(account)) {
        return Promise.reject(new PorticoError('method_not_supported', 'An embedded wallet cannot be unlinked.'))
      }
      return unlinkExternalWallet(api, account)
    },
  }
}

/** The `smart_wallet` account type (no login of its own: never remembered). */
export function smartWalletDescriptor(): MethodDescriptor {
  return {
    id: 'smart_wallet',
    displayName: 'smart wallet',
    accountTypes: ['smart_wallet'],
    userField: 'smartWallet',
    normalise: (raw) => normaliseFields<SmartWalletAccount>(raw, SMART_WALLET_FIELDS),
    linkMethods: [],
    remembered: false,
  }
}

/** The calls a signature login method (SIWE, SIWS) transfers and unlinks its wallet with. */
export interface SignInWalletCalls {
  transfer(api: Api, body: { nonce: string; address: string }): Promise<WireAuthResponse | { user: WireUser }>
  unlink(api: Api, body: { address: string }): Promise<{ user: WireUser }>
}

/**
 * The method a signature login plugin declares (its id, e.g. 'siwe'): shown as 'wallet',
 * transferred as 'Wallet address'; the `wallet` account type stays this kit's (one declarer
 * normalises it). `calls` loads the plugin's calls on first use.
 */
export function signInMethod(id: string, calls: () => Promise<SignInWalletCalls>): MethodDescriptor {
  return {
    id,
    displayName: 'wallet',
    transferLabel: 'Wallet address',
    linkMethods: [id],
    transfer: async (api, data) => (await calls()).transfer(api, { nonce: data.nonce, address: data.account }),
    unlink: async (api, account) => (await calls()).unlink(api, { address: String((account as { address?: unknown }).address ?? '') }),
  }
}
