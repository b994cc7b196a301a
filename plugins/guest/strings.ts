/** Every user-facing text of the guest plugin (overridable: `texts: { guest: {...} }`). */
export const GUEST_TEXTS = {
  /** Login method display name (part 1 section 2, 'Login method display names'). */
  displayName: 'guest',
  /** (ours) The landing row. */
  continueAsGuest: 'Continue as guest',
} as const
