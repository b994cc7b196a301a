/**
 * The code rule every code method shares (part 1 sections 4 and 9), defined once: the code
 * boxes here and the code kit's flow (`portico/kits/code`, which imports them from `portico/ui`)
 * read the same numbers.
 */

/** Codes are exactly this many digits (part 1 section 9, 'Code length'). */
export const CODE_LENGTH = 6
/** A new code may be requested this long after the last one (part 1 section 4). */
export const RESEND_COOLDOWN_MS = 30_000
/** The code boxes clear this long after a failed code (part 1 section 4). */
export const CODE_RESET_MS = 1_400
