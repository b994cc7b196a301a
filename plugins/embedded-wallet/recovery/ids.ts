/** Screen ids of the recovery screens (prefixed with the plugin id) and their timings. */
export const RECOVERY_SCREENS = {
  select: 'embedded-wallet-recovery-select',
  /** The four-step password flow the user started (can be cancelled and closed). */
  password: 'embedded-wallet-recovery-password',
  /** The same flow started automatically (cannot be closed; closes 1.4 s after done). */
  passwordRequired: 'embedded-wallet-recovery-password-required',
  recoverPassword: 'embedded-wallet-recovery-password-recover',
  cloud: 'embedded-wallet-recovery-cloud',
  failure: 'embedded-wallet-recovery-failure',
  /** The update splash before the password update (skipped when resetting). */
  updateSplash: 'embedded-wallet-recovery-update-splash',
  /** 'Automatically secure your account' (chosen first when automatic recovery is enabled). */
  automatic: 'embedded-wallet-recovery-automatic',
} as const

/** Success auto-close (spec part 2 section 9). */
export const SUCCESS_CLOSE_MS = 1400

/**
 * Setting or opening a recovery share in the frame (scrypt for a password, the drive for a
 * cloud method) ends within this time or fails with a clear error: a screen never waits forever.
 */
export const RECOVERY_FRAME_TIMEOUT_MS = 60_000
