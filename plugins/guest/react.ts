import { useCallback } from 'react'
import { usePlugin, useStore } from 'portico/ui'
import type { GuestState } from './flow'

/** Headless guest accounts: `createGuestAccount()` logs in as a guest (same account on this browser). */
export function useGuestAccounts() {
  const guest = usePlugin('guest')
  const state: GuestState = useStore(guest.state)
  const createGuestAccount = useCallback(() => guest.createGuestAccount(), [guest])
  return { createGuestAccount, state }
}
