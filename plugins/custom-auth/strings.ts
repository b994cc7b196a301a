import { CUSTOM_AUTH_DISPLAY_NAME } from './method'

/** Every user-facing text of the custom-auth plugin, word for word from part 1 section 8 (overridable: `texts: { 'custom-auth': {...} }`). */
export const CUSTOM_AUTH_TEXTS = {
  /** Login method display name (part 1 section 2, 'Login method display names'); in the first load from ./method.ts. */
  displayName: CUSTOM_AUTH_DISPLAY_NAME,
  userAlreadyExists: 'User already exists with provided custom JWT account.',
  failedToSync: 'Failed to sync with custom auth provider',
  /** (ours) developer warning */
  notEnabled:
    'custom-auth: no getCustomAccessToken was given, so custom auth stays off. Pass customAuth({ getCustomAccessToken }).',
} as const
