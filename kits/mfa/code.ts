/**
 * The MFA code rule (part 2 section 5) is the code kit's rule (portico/kits/code: whitespace
 * stripped, numeric, exactly 6 digits) with the MFA texts: method plugins check a code before
 * they send it. The texts are MFA_TEXTS' own (plugins/mfa/strings.ts; a test keeps them equal),
 * held here so a method's entry needs no texts chunk.
 */
import { PorticoError } from 'portico'
import { normaliseCode } from 'portico/kits/code'

/** The code boxes' texts under `texts: { mfa: {...} }` (part 2 section 5 and the boxes' label). */
export const MFA_CODE_TEXTS = {
  codeNumeric: 'Passcode can only be numbers',
  codeLength: 'Passcode must be exactly 6 numbers',
  codeLabel: 'Verification code',
}

/**
 * Normalise a typed or pasted MFA code (part 2 section 5): whitespace stripped; anything
 * but digits 'Passcode can only be numbers'; not exactly 6 'Passcode must be exactly 6
 * numbers'. Codes must be strings. `texts`: the app's overrides (`config.texts.mfa`).
 */
export function validateMfaCode(raw: unknown, texts: Partial<Record<'codeNumeric' | 'codeLength', string>> = {}): string {
  const T = {
    codeNumeric: typeof texts.codeNumeric === 'string' ? texts.codeNumeric : MFA_CODE_TEXTS.codeNumeric,
    codeLength: typeof texts.codeLength === 'string' ? texts.codeLength : MFA_CODE_TEXTS.codeLength,
  }
  if (typeof raw !== 'string') throw new PorticoError('invalid_data', T.codeNumeric)
  return normaliseCode(raw, T)
}
