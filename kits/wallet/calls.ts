/** The wallet base's calls (spec part 1 section 7, "Wallet signature"). */
import type { Api, WalletAccount, WireAuthResponse } from 'portico'

/** POST /siwe/unlink or /siws/unlink {address}, by the wallet's chain type. */
export function unlinkExternalWallet(api: Api, wallet: Pick<WalletAccount, 'address' | 'chainType'>) {
  const path = wallet.chainType === 'solana' ? '/siws/unlink' : '/siwe/unlink'
  return api.post<WireAuthResponse>(path, { address: wallet.address }, { fromUi: true })
}
