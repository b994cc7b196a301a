/**
 * The cloud OAuth popup's return (loaded with the plugin: the kernel offers the page address
 * at start-up): the popup page claims its parameters, posts them to its opener (its own
 * origin only) and closes. The flow itself (cloud-oauth.ts) loads on first use.
 */
import { PorticoError, type ReturnClaim } from 'portico'
import type { OAuthHost } from 'portico/kits/oauth'
import type { CloudMethod } from './machine'

export const RECOVERY_POPUP_PARAM = 'portico_recovery_popup'
export const RECOVERY_POPUP_MESSAGE = 'portico:recovery-oauth-return'
const RETURN_PARAMS = ['privy_oauth_code', 'privy_oauth_state', 'privy_oauth_provider', 'privy_oauth_error', 'ckWebAuthToken', 'ckSession', 'ckError']
export const RECOVERY_POPUP_FEATURES = 'popup,width=480,height=640'

export interface PopupReturn {
  type: typeof RECOVERY_POPUP_MESSAGE
  provider: CloudMethod
  code: string | null
  state: string | null
  error: string | null
}

export const recoveryError = (code: string, message: string, cause?: unknown) =>
  new PorticoError(code, message, { kind: 'client_error', cause, data: { provider: 'embedded-wallet-recovery' } })

/** The popup page's part: claims the return parameters, answers its opener, closes. */
export function claimRecoveryReturn(url: URL, host: () => OAuthHost | undefined): ReturnClaim | undefined {
  const provider = url.searchParams.get(RECOVERY_POPUP_PARAM)
  if (provider !== 'google-drive' && provider !== 'icloud') return undefined
  const q = url.searchParams
  const message: PopupReturn =
    provider === 'icloud'
      ? { type: RECOVERY_POPUP_MESSAGE, provider, code: q.get('ckWebAuthToken'), state: null, error: q.get('ckError') }
      : { type: RECOVERY_POPUP_MESSAGE, provider, code: q.get('privy_oauth_code'), state: q.get('privy_oauth_state'), error: q.get('privy_oauth_error') }
  return {
    params: [RECOVERY_POPUP_PARAM, ...RETURN_PARAMS],
    finish: () => {
      const h = host()
      if (!h?.opener) return
      h.opener.postMessage(message, h.location.origin)
      h.close?.()
    },
  }
}

