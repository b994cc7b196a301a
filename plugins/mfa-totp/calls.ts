/** The authenticator-app enrolment calls: /mfa/totp/init → {auth_url, secret}, /mfa/totp/enroll {code} → the user. */
import type { Api, WireUser } from 'portico'

export interface TotpEnrollmentInfo {
  /** The otpauth:// URI (spec part 2 section 3, 'TOTP enrolment info': authUrl). */
  authUrl: string
  secret: string
}

export const initTotpEnrollment = async (api: Api): Promise<TotpEnrollmentInfo> => {
  const r = await api.post<{ auth_url: string; secret: string }>('/mfa/totp/init', {})
  return { authUrl: r.auth_url, secret: r.secret }
}

export const submitTotpEnrollment = (api: Api, code: string) => api.post<{ user: WireUser }>('/mfa/totp/enroll', { code })
