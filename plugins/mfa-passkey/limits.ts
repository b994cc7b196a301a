/** Part 2 section 9: at most 5 passkeys ('Add new passkey' hidden at 5). */
export const MAX_MFA_PASSKEYS = 5
/** The enrolment list: 3 passkeys, or 2 when there are more than 3. */
export const passkeysShown = (count: number) => (count > 3 ? 2 : 3)
