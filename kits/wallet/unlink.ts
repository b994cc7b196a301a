/** Unlinking an external wallet, headless and as a React hook (needs `<PorticoProvider>`). */
import { useCallback } from 'react'
import { PorticoError, type Portico, type User } from 'portico'
import { useKernel } from 'portico/ui'
import { isExternalWallet } from './account'
import { unlinkExternalWallet } from './calls'

/**
 * Unlink an external wallet of the logged-in user: POST /siwe/unlink or /siws/unlink by the
 * wallet's chain type, then update the user record. Without an address: the user's first
 * external wallet.
 */
export async function unlinkWallet(kernel: Pick<Portico, 'api' | 'session'>, address?: string): Promise<User> {
  const user = kernel.session.user
  if (!user) throw new PorticoError('must_be_authenticated', 'User must be authenticated to unlink a wallet.')
  const wallets = user.linkedAccounts.filter(isExternalWallet)
  const wallet = address ? wallets.find((w) => w.address.toLowerCase() === address.toLowerCase()) : wallets[0]
  if (!wallet) throw new PorticoError('invalid_data', address ? `No linked wallet has the address ${address}.` : 'No wallet is linked.')
  const res = await unlinkExternalWallet(kernel.api, wallet)
  return kernel.session.setUser(res.user)
}

/** `unlinkWallet(address?)` bound to the provider's kernel (stable). */
export function useUnlinkWallet() {
  const kernel = useKernel()
  const unlink = useCallback((address?: string) => unlinkWallet(kernel, address), [kernel])
  return { unlinkWallet: unlink }
}
