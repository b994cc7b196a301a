/**
 * The OAuth calls (part 1 section 7, 'Social (OAuth)'), one function each, `api` first.
 * Codes, verifiers and tokens travel in bodies only, never in URLs or logs.
 */
import type { Api, WireAccountTransferData, WireAuthResponse, WireUser } from 'portico'

export interface OAuthInitBody {
  provider: string
  redirect_to: string
  code_challenge: string
  state_code: string
  /** A captcha token, when the app uses one. */
  token?: string
}

/** POST /oauth/init: the provider's authorization URL for this challenge and state. */
export const initOAuth = (api: Api, body: OAuthInitBody) => api.post<{ url: string }>('/oauth/init', body, { auth: 'none' })

export interface OAuthGrantBody {
  authorization_code: string
  state_code: string
  code_verifier: string
  provider: string
}

/** POST /oauth/authenticate (mode 'login-or-sign-up', or 'no-signup' for `disableSignup`). */
export const authenticateOAuth = (api: Api, body: OAuthGrantBody, mode: 'login-or-sign-up' | 'no-signup') =>
  api.post<WireAuthResponse>('/oauth/authenticate', { ...body, mode }, { auth: 'auto' })

/** POST /oauth/link: the same grant, for the logged-in user. */
export const linkOAuth = (api: Api, body: OAuthGrantBody) =>
  api.post<{ user: WireUser; oauth_tokens?: WireAuthResponse['oauth_tokens'] }>('/oauth/link', body)

/** POST /oauth/unlink {provider, subject}. */
export const unlinkOAuth = (api: Api, provider: string, subject: string) => api.post<{ user: WireUser }>('/oauth/unlink', { provider, subject })

/** POST /oauth/transfer {nonce, userInfo}: move the provider account of another user onto this one. */
export const transferOAuth = (api: Api, data: WireAccountTransferData & { oauth_user_info?: unknown }) =>
  api.post<WireAuthResponse | { user: WireUser }>('/oauth/transfer', {
    nonce: data.nonce,
    userInfo: data.oauth_user_info ?? { provider: data.link_method, subject: data.account },
  })
