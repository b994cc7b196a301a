/**
 * The MFA code rule (part 2 section 5), held by the entry: method plugins check a code before
 * they send it. Its two texts are MFA_TEXTS' own (./strings.ts), copied here so the lazy texts
 * chunk shares no module with the entry (a test keeps them equal).
 */
import { PorticoError } from 'portico'
import { MFA_CODE_LENGTH } from './state'

export const MFA_CODE_RULE_DEFAULTS = {
  codeNumeric: 'Passcode can only be numbers',
  codeLength: 'Passcode must be exactly 6 numbers',
}

/**
 * Normalise a typed or pasted MFA code (part 2 section 5): whitespace stripped; anything
 * but digits 'Passcode can only be numbers'; not exactly 6 'Passcode must be exactly 6
 * numbers'. Codes must be strings.
 */
export function validateMfaCode(raw: unknown, texts: Partial<Record<'codeNumeric' | 'codeLength', string>> = {}): string {
  const T = {
    codeNumeric: typeof texts.codeNumeric === 'string' ? texts.codeNumeric : MFA_CODE_RULE_DEFAULTS.codeNumeric,
    codeLength: typeof texts.codeLength === 'string' ? texts.codeLength : MFA_CODE_RULE_DEFAULTS.codeLength,
  }
  if (typeof raw !== 'string') throw new PorticoError('invalid_data', T.codeNumeric)
  const code = raw.replace(/\s+/g, '')
  if (!/^\d*$/.test(code)) throw new PorticoError('invalid_data', T.codeNumeric)
  if (code.length !== MFA_CODE_LENGTH) throw new PorticoError('invalid_data', T.codeLength)
  return code
}

