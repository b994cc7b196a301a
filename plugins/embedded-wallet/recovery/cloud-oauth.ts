/**
 * The cloud-backup OAuth flow of the host page (spec part 2 section 7 'Recovery (HTTP)'):
 * a popup opened inside the user's click, then
 * - Google Drive: PKCE verifier + S256 challenge + state → POST /recovery/oauth/init → Google's
 *   consent → the server's callback → this app's page (`?portico_recovery_popup=google-drive`
 *   with privy_oauth_code / privy_oauth_state) → the page posts them to its opener and closes;
 * - iCloud: POST /recovery/oauth/init_icloud → CloudKit's sign-in → the container's sign-in
 *   callback, this app's page (`?portico_recovery_popup=icloud` with ckWebAuthToken);
 * then POST /recovery/oauth/authenticate {authorization_code, state_code, code_verifier,
 * provider} → the drive's access token, handed to the wallet frame (never stored here).
 * The opener accepts a message only from that popup window and from its own origin.
 */
import type { PluginContext } from 'portico'
import { challengeOf, createStateCode, createVerifier, watchPopup, type PopupWindow } from 'portico/kits/browser'
import type { OAuthHost } from 'portico/kits/oauth'
import { authenticateRecoveryOAuth, initRecoveryICloud, initRecoveryOAuth } from './calls'
import type { CloudMethod } from './machine'
import { RECOVERY_TEXTS, type RecoveryTexts } from './strings'
import { RECOVERY_POPUP_FEATURES, RECOVERY_POPUP_MESSAGE, RECOVERY_POPUP_PARAM, recoveryError, type PopupReturn } from './popup-return'

/** Opens the popup synchronously (inside the click); null when the browser blocked it. */
export function openRecoveryPopup(host: OAuthHost): PopupWindow | null {
  return host.open('about:blank', 'portico-recovery', RECOVERY_POPUP_FEATURES)
}

/**
 * Runs the OAuth flow in `popup` and returns the drive's access token. Errors carry the
 * spec's texts: denied → 'User denied confirmation during OAuth flow', a bad code → 'Invalid
 * code during OAuth flow.', the popup closed → denied too.
 */
export async function authorizeCloud(
  ctx: Pick<PluginContext, 'api'>,
  host: OAuthHost,
  popup: PopupWindow,
  method: CloudMethod,
  T: RecoveryTexts = RECOVERY_TEXTS,
): Promise<string> {
  const denied = () => recoveryError('oauth_user_denied', T.oauthDenied)
  const verifier = createVerifier()
  const state = createStateCode()
  const watch = watchPopup<PopupReturn>(host, popup, {
    origin: host.location.origin,
    originMismatch: () => recoveryError('oauth_unexpected', T.tryAgainError),
    rejected: denied,
    timedOut: () => recoveryError('oauth_unexpected', T.tryAgainError),
    accept(raw) {
      const d = raw as Partial<PopupReturn> | null
      if (!d || d.type !== RECOVERY_POPUP_MESSAGE || d.provider !== method) return undefined
      return { value: { type: RECOVERY_POPUP_MESSAGE, provider: method, code: str(d.code), state: str(d.state), error: str(d.error) } }
    },
  })
  try {
    const page = new URL(host.location.href)
    for (const k of [...page.searchParams.keys()]) page.searchParams.delete(k)
    page.hash = ''
    page.searchParams.set(RECOVERY_POPUP_PARAM, method)
    const { url } =
      method === 'google-drive'
        ? await initRecoveryOAuth(ctx.api, { redirect_to: page.href, code_challenge: await challengeOf(verifier), state_code: state })
        : await initRecoveryICloud(ctx.api)
    popup.location.href = url
  } catch (e) {
    watch.cancel()
    throw e
  }
  const ret = await watch.result
  if (ret.error) throw ret.error === 'oauth_user_denied' || ret.error === 'AUTHENTICATION_FAILED' ? denied() : recoveryError('oauth_unexpected', T.oauthInvalid)
  if (method === 'google-drive' && ret.state !== state) throw recoveryError('oauth_unexpected', T.oauthInvalid)
  // iCloud's sign-in carries no state of ours: the server needs one all the same (both codes set).
  const { access_token } = await authenticateRecoveryOAuth(ctx.api, {
    authorization_code: ret.code ?? 'undefined',
    state_code: ret.state ?? state,
    code_verifier: verifier,
    provider: method,
  })
  return access_token
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : null)
