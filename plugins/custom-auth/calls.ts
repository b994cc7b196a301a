/** The custom-auth plugin's API call (part 1 section 7, "Other login kinds"). */
import type { Api, WireAuthResponse } from 'portico'

/** POST /custom_jwt_account/authenticate {token}: log in with a JWT the host's own auth issued. */
export const authenticateCustomJwt = (api: Api, token: string) =>
  api.post<WireAuthResponse>('/custom_jwt_account/authenticate', { token }, { auth: 'none' })
