/** The guest plugin's API call (part 1 section 7, "Other login kinds"). */
import type { Api, WireAuthResponse } from 'portico'

/** POST /guest/authenticate {guest_credential}: the same credential always gives the same guest user. */
export const authenticateGuest = (api: Api, guestCredential: string) =>
  api.post<WireAuthResponse>('/guest/authenticate', { guest_credential: guestCredential }, { auth: 'none', fromUi: true })
