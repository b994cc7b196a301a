/**
 * Delegated actions' calls: POST /wallets/revoke {} (spec part 2 section 7) on the Portico API,
 * and the consent page's handshake (a visible iframe on the wallet service's origin; the
 * embedded-wallet plugin's wallet page): the host pings `ready`, then sends
 * `delegated-actions:consent` with the access token, the wallet and the policy; the page
 * answers once the user chose (Allow: the updated user; Not now: `{ declined: true }`). The key
 * never passes through this page, and the host cannot allow on the user's behalf: the page acts
 * only on a click in its own document.
 */
import type { Api, WireAuthResponse } from 'portico'
import type { PageOptions, PageTarget, WalletPageKit } from 'portico/plugins/embedded-wallet'
import { CONSENT_REQUEST, type ConsentPayload, type ConsentReply } from './protocol'

export function revokeWallets(api: Api): Promise<WireAuthResponse> {
  return api.post<WireAuthResponse>('/wallets/revoke', {})
}

export type ConsentFrameTarget = PageTarget

/**
 * Runs the consent handshake with the page: resolves with its reply once the user chose;
 * rejects with the page's `{ type, message }` as a PorticoError (code: the frame error type).
 */
export function requestConsent(
  page: Pick<WalletPageKit, 'requestPage'>,
  frame: ConsentFrameTarget,
  origin: string,
  payload: () => Promise<ConsentPayload>,
  opts: PageOptions = {},
): Promise<ConsentReply> {
  return page.requestPage<ConsentReply>(
    frame,
    origin,
    {
      type: CONSENT_REQUEST,
      payload,
      provider: 'delegated-actions',
      codes: { missing_or_invalid_mfa: 'MISSING_MFA_CREDENTIALS', invalid_request_arguments: 'invalid_data' },
    },
    opts,
  )
}
