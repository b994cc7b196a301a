/** Every user-facing text of the cross-app plugin (spec part 1 sections 2, 4, 8); overridable with `texts: { 'cross-app': {...} }`. */
import { CROSS_APP_LABELS } from './labels'

export const CROSS_APP_TEXTS = {
  // displayName, rowLabel, issue, readOnly: ./labels.ts (in the page's first load)
  ...CROSS_APP_LABELS,
  connecting: 'Connecting to {app}',
  checkPopup: 'Check the pop-up window to continue.',
  success: 'Successfully connected',
  unexpectedFlow: 'Unexpected auth flow. This may be a phishing attempt.',
  originMismatch: 'Origins between parent and child windows do not match.',
  userRejected: 'User rejected request',
  timedOut: 'Authorization request timed out after 2 minutes.',
  popupBlocked: 'The pop-up window could not open. Allow pop-ups for this site and try again.',
  failedTitle: 'Could not connect',
  tryAgain: 'Retry',
  tryAnotherMethod: 'Try another method',
  // The provider app's /oauth/transact page.
  consentTitle: 'Log in to {app}',
  consentBody: '{app} asks to log you in with your {provider} account.',
  allow: 'Continue',
  deny: 'Cancel',
  loginFirst: 'Log in to your {provider} account first.',
  logIn: 'Log in',
}
