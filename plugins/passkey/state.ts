/** The passkey plugin's state and the user's passkeys: what the entry needs before the flow loads. */
import type { PasskeyAccount, PorticoError, User } from 'portico'

/** Spec part 1 section 9: at most 5 passkeys per user ('Add new passkey' hidden at 5). */
export const MAX_PASSKEYS = 5

export type PasskeyAction = 'signup' | 'login' | 'link'
export type PasskeyStatus = 'initial' | 'generating-challenge' | 'awaiting-passkey' | 'submitting-response' | 'done' | 'error'
export interface PasskeyState {
  status: PasskeyStatus
  action: PasskeyAction | null
  error: PorticoError | null
}

export const INITIAL_PASSKEY_STATE: PasskeyState = { status: 'initial', action: null, error: null }

export const passkeysOf = (user: User | null | undefined): PasskeyAccount[] =>
  (user?.linkedAccounts ?? []).filter((a): a is PasskeyAccount => a.type === 'passkey')
