/** The SMS enrolment calls: /mfa/passwordless_sms/init {action: 'enroll', phoneNumber}, /mfa/passwordless_sms/enroll {phoneNumber, code}. */
import type { Api, WireUser } from 'portico'

export const initSmsEnrollment = (api: Api, phoneNumber: string) =>
  api.post<{ success: boolean }>('/mfa/passwordless_sms/init', { action: 'enroll', phoneNumber })

export const submitSmsEnrollment = (api: Api, phoneNumber: string, code: string) =>
  api.post<{ user: WireUser }>('/mfa/passwordless_sms/enroll', { phoneNumber, code })
