/** The SMS method raises the base's errors (portico/plugins/mfa); it declares none of its own. */
export { MFA_ERRORS, mfaError } from 'portico/kits/mfa'
