import { useCallback, useSyncExternalStore } from 'react'
import { useKernel } from 'portico/ui'
import { guestAccounts, type GuestState } from './flow'

/** Headless guest accounts: `createGuestAccount()` logs in as a guest (same account on this browser). */
export function useGuestAccounts() {
  const kernel = useKernel()
  const accounts = guestAccounts(kernel)
  const state: GuestState = useSyncExternalStore(accounts.subscribe, accounts.getState, accounts.getState)
  const createGuestAccount = useCallback(() => accounts.createGuestAccount(), [accounts])
  return { createGuestAccount, state }
}
