/** The cross-app plugin's API calls (spec part 1 section 7, "Other login kinds"). */
import type { Api, WireAuthResponse, WireUser } from 'portico'

export interface CrossAppConnection {
  provider_app_id: string
  provider_app_name: string
  provider_app_icon_url: string | null
  provider_app_custom_api_url: string | null
  read_only: boolean
  /** The provider app's /oauth/transact page (reference server). */
  transact_url?: string
}

export interface CrossAppGrant {
  provider_app_id: string
  code: string
  code_verifier: string
}

/** GET /apps/{requesterAppId}/cross-app/connections. */
export const getCrossAppConnections = (api: Api, appId: string) =>
  api.get<{ connections: CrossAppConnection[] }>(`/apps/${encodeURIComponent(appId)}/cross-app/connections`, { auth: 'none' })

/** GET /apps/{providerAppId}/cross-app/details. */
export const getCrossAppDetails = (api: Api, appId: string) =>
  api.get<{ name: string; icon_url: string | null }>(`/apps/${encodeURIComponent(appId)}/cross-app/details`, { auth: 'none' })

/** POST /cross-app/authenticate {provider_app_id, code, code_verifier, mode}. */
export const authenticateCrossApp = (api: Api, body: CrossAppGrant & { mode?: 'no-signup' | 'login-or-sign-up' }) =>
  api.post<WireAuthResponse>('/cross-app/authenticate', body)

/** POST /cross-app/link (bearer). */
export const linkCrossApp = (api: Api, body: CrossAppGrant) => api.post<WireAuthResponse | { user: WireUser }>('/cross-app/link', body)

/** POST /cross-app/unlink {provider_app_id, subject}. */
export const unlinkCrossApp = (api: Api, body: { provider_app_id: string; subject: string }) =>
  api.post<{ user: WireUser }>('/cross-app/unlink', body)

/** Provider side: POST /cross-app/authorize (the provider user's bearer) → a one-time code for the requester. */
export const authorizeCrossApp = (api: Api, body: { requester_app_id: string; code_challenge: string; origin: string; action?: 'login' | 'link' | 'transact' }) =>
  api.post<{ code: string; origin: string }>('/cross-app/authorize', body)
