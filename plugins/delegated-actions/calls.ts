/**
 * Delegated actions' calls: POST /wallets/revoke {} (spec part 2 section 7) on the Portico API,
 * and `delegated-actions:consent` to the wallet frame (which seals the wallet's key to the
 * server and calls POST /wallets/delegate itself: the key never passes through this page).
 */
import type { Api, WireAuthResponse } from 'portico'
import { CONSENT_REQUEST, type ConsentPayload, type ConsentReply } from './protocol'

export function revokeWallets(api: Api): Promise<WireAuthResponse> {
  return api.post<WireAuthResponse>('/wallets/revoke', {})
}

/** The wallet frame client of the embedded-wallet plugin (the part this plugin uses). */
export interface FrameRequester {
  ready?(timeoutMs: number): Promise<void>
  request(type: string, payload: unknown, options?: { timeoutMs?: number }): Promise<unknown>
}

/** Spec part 2 section 9: the wallet service must be ready within 30 s in the modal. */
export const FRAME_READY_TIMEOUT_MS = 30_000

export async function consentDelegation(frame: FrameRequester, payload: ConsentPayload): Promise<ConsentReply> {
  await frame.ready?.(FRAME_READY_TIMEOUT_MS)
  return (await frame.request(CONSENT_REQUEST, payload)) as ConsentReply
}
