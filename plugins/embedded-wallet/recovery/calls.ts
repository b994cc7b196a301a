/** The recovery HTTP calls (spec part 2 section 7 'Recovery (HTTP)'), named verbNoun. */
import type { PluginContext } from 'portico'

type Api = PluginContext['api']

export const initRecoveryOAuth = (api: Api, body: { redirect_to: string; code_challenge: string; state_code: string }) =>
  api.post<{ url: string }>('/recovery/oauth/init', body)

export const initRecoveryICloud = (api: Api) => api.post<{ url: string }>('/recovery/oauth/init_icloud', { client_type: 'web' })

export const authenticateRecoveryOAuth = (
  api: Api,
  body: { authorization_code: string; state_code: string; code_verifier: string; provider: 'google-drive' | 'icloud' },
) => api.post<{ access_token: string }>('/recovery/oauth/authenticate', body)
