/** The passkey method's texts ('ours' where the spec names no words); overridable as `texts: { 'mfa-passkey': {...} }`. */
export const MFA_PASSKEY_TEXTS = {
  /** Part 2 sections 2 and 4, word for word. */
  added: 'Passkey verification added',
  enablePasskeys: 'Enable passkeys',
  addNewPasskey: 'Add new passkey',
  addANewPasskey: 'Add a new passkey',
  /** Part 2 section 8, word for word: other errors of the passkey path. */
  somethingWentWrong: 'something went wrong',
  /** Part 1 section 3: a passkey's title when nothing names it. */
  unknownDevice: 'Unknown device',
  /** (ours) */
  introTitle: 'Verify with a passkey',
  introDescription: 'Use a passkey on this device to verify your identity before sensitive actions.',
  listTitle: 'Your passkeys',
  listDescription: 'Use your passkeys to verify your identity.',
  more: 'and {count} more',
}
