/** Every user-facing text of the guest plugin. */
export const GUEST_TEXTS = {
  /** Login method display name (part 1 section 2). */
  displayName: 'Guest',
  /** (ours) The landing row. */
  continueAsGuest: 'Continue as guest',
  alreadyLoggedIn:
    'Attempted to create a guest account, but the user is already logged in with another method. Log out first.',
} as const
