import { describe, expect, it } from 'vitest'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import {
  characterClasses,
  confirmError,
  invalidCharacters,
  isValidPassword,
  passwordError,
  passwordStrength,
  recoveryFileName,
  recoveryFileText,
  strengthScore,
} from './password'
import { generatePassphrase, randomIndex } from './passphrase'
import {
  chooseRecoveryScreen,
  createPasswordFlow,
  initialPasswordFlow,
  passwordFlow,
  screenForMethod,
  selectionOptions,
  type PasswordFlowState,
} from './machine'
import { RECOVERY_TEXTS as T } from './strings'

describe('recovery password rules (part 2 section 5)', () => {
  it('needs at least 6 characters', () => {
    expect(passwordError('abc12')).toBe('Password must be at least 6 characters')
    expect(passwordError('abc123')).toBeNull()
    expect(passwordError('')).toBe('Password must be at least 6 characters')
  })

  it('allows letters, digits and ! @ # $ % ^ & * ( ) - _ +', () => {
    expect(passwordError('aZ09!@#$%^&*()-_+')).toBeNull()
    expect(invalidCharacters('aZ09!@#$%^&*()-_+')).toEqual([])
  })

  it("lists invalid characters once each, a space as SPACE: 'Invalid characters used ( {list} )'", () => {
    expect(passwordError('my pass word.')).toBe('Invalid characters used ( SPACE, . )')
    expect(passwordError('abc~def~')).toBe('Invalid characters used ( ~ )')
    expect(passwordError('pässwörd')).toBe('Invalid characters used ( ä, ö )')
    // Invalid characters win over length.
    expect(passwordError('a b')).toBe('Invalid characters used ( SPACE )')
  })

  it('checks only once the field is touched; Continue needs a non-empty valid password', () => {
    expect(passwordError('', false)).toBeNull()
    expect(passwordError('a b', false)).toBeNull()
    expect(isValidPassword('')).toBe(false)
    expect(isValidPassword('abc')).toBe(false)
    expect(isValidPassword('abc def')).toBe(false)
    expect(isValidPassword('abcdef')).toBe(true)
  })

  it('scores Weak, Medium (above 0.5) and Strong (above 0.9); invalid counts as Weak', () => {
    expect(characterClasses('aA1!')).toBe(4)
    expect(passwordStrength('abcdef')).toBe('Weak')
    expect(passwordStrength('abcdefgh')).toBe('Weak') // 0.25 + 0.083 + 0.167 = 0.5: not above
    expect(strengthScore('abcdefgh')).toBe(0.5)
    expect(passwordStrength('Abcdef12')).toBe('Medium')
    expect(passwordStrength('Abcdef12!@xyz')).toBe('Medium') // 0.25 + 0.25 + 0.271
    expect(strengthScore('Abcdefgh12!@xyzwvuts')).toBe(0.917) // 20 characters: 0.25 + 0.25 + 0.417
    expect(passwordStrength('Abcdefgh12!@xyzwvuts')).toBe('Strong')
    expect(passwordStrength('correct-horse-battery-staple')).toBe('Strong')
    expect(passwordStrength('Abcdef1 2345!')).toBe('Weak') // invalid (space)
    expect(strengthScore('a b c d e f g h i j')).toBe(0)
  })

  it('the score uses length >= 8, classes and a length-based term', () => {
    // Same classes, longer: higher.
    expect(strengthScore('abcdefghij')).toBeGreaterThan(strengthScore('abcdefg'))
    // Same length, more classes: higher.
    expect(strengthScore('Abcdef1!')).toBeGreaterThan(strengthScore('abcdefgh'))
    // Crossing 8 characters adds the length step.
    expect(strengthScore('abcdefgh') - strengthScore('abcdefg')).toBeGreaterThan(0.25)
    for (const pw of ['abcdef', 'Abcdef12', 'x'.repeat(100), 'A1!a'.repeat(20)]) {
      expect(strengthScore(pw)).toBeGreaterThanOrEqual(0)
      expect(strengthScore(pw)).toBeLessThanOrEqual(1)
    }
  })

  it("confirm must equal the original: 'Passwords do not match'", () => {
    expect(confirmError('abcdef', 'abcdeg')).toBe('Passwords do not match')
    expect(confirmError('abcdef', 'abcdef')).toBeNull()
    expect(confirmError('abcdef', '', false)).toBeNull()
    expect(confirmError('abcdef', '')).toBe('Passwords do not match')
  })

  it('generates a 4-word passphrase from the BIP-39 English list that passes the rules', async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const p = await generatePassphrase()
      const words = p.split('-')
      expect(words).toHaveLength(4)
      for (const w of words) expect(wordlist).toContain(w)
      expect(isValidPassword(p)).toBe(true)
      seen.add(p)
    }
    expect(seen.size).toBe(20)
  })

  it('draws word indexes without modulo bias (rejection sampling)', () => {
    // 65536 is 32 × 2048: every 16-bit value is accepted and maps evenly.
    const values = [0, 2047, 2048, 65535]
    let i = 0
    const fake = (a: Uint16Array) => ((a[0] = values[i++]), a)
    expect([0, 1, 2, 3].map(() => randomIndex(2048, fake))).toEqual([0, 2047, 0, 2047])
    // n = 3000: 65536 / 3000 → limit 63000; 64000 is rejected, then 5 is taken.
    const seq = [64000, 5]
    let j = 0
    expect(randomIndex(3000, (a) => ((a[0] = seq[j++]), a))).toBe(5)
  })
})

describe('recovery file name (part 2 section 9)', () => {
  it('lower-cases the app name, keeps letters only, joins words with hyphens', () => {
    expect(recoveryFileName('Portico Demo')).toBe('portico-demo-privy-wallet-recovery.txt')
    expect(recoveryFileName('Acme  App 2.0!')).toBe('acme-app-privy-wallet-recovery.txt')
    expect(recoveryFileName('My_Cool-App')).toBe('my-cool-app-privy-wallet-recovery.txt')
    expect(recoveryFileName('')).toBe('privy-wallet-recovery.txt')
    expect(recoveryFileName(null)).toBe('privy-wallet-recovery.txt')
    expect(recoveryFileName('123')).toBe('privy-wallet-recovery.txt')
  })

  it("the file says the password is needed on a new device, and holds it", () => {
    const text = recoveryFileText('apple-river-stone-cloud', 'Portico Demo')
    expect(text).toContain('apple-river-stone-cloud')
    expect(text).toContain('new device')
    expect(text).toContain('Portico Demo')
  })
})

describe('password create flow (part 2 section 4)', () => {
  const run = (events: Parameters<typeof passwordFlow>[1][], from: PasswordFlowState = initialPasswordFlow) =>
    events.reduce(passwordFlow, from)

  it("'next' advances through creating, saving, confirming, finalizing", () => {
    expect(run([{ type: 'next' }]).step).toBe('saving')
    expect(run([{ type: 'next' }, { type: 'next' }]).step).toBe('confirming')
    expect(run([{ type: 'next' }, { type: 'next' }, { type: 'next' }]).step).toBe('finalizing')
  })

  it("'back' returns one step; creating does not go back within the flow", () => {
    expect(run([{ type: 'back' }]).step).toBe('creating')
    expect(run([{ type: 'next' }, { type: 'next' }, { type: 'back' }]).step).toBe('saving')
    expect(run([{ type: 'next' }, { type: 'back' }, { type: 'back' }]).step).toBe('creating')
  })

  it('leaving finalizing submits first, then done with the result', () => {
    const fin = run([{ type: 'next' }, { type: 'next' }, { type: 'next' }])
    const submitting = passwordFlow(fin, { type: 'next' })
    expect(submitting).toMatchObject({ step: 'finalizing', submitting: true })
    // While submitting, neither back nor next moves.
    expect(passwordFlow(submitting, { type: 'back' })).toBe(submitting)
    expect(passwordFlow(submitting, { type: 'next' })).toBe(submitting)
    expect(passwordFlow(submitting, { type: 'submitted', ok: true })).toEqual({ step: 'done', submitting: false, result: 'success' })
    expect(passwordFlow(submitting, { type: 'submitted', ok: false })).toEqual({ step: 'done', submitting: false, result: 'failure' })
    // Done is final.
    const done = passwordFlow(submitting, { type: 'submitted', ok: true })
    expect(passwordFlow(done, { type: 'back' })).toBe(done)
    expect(passwordFlow(done, { type: 'next' })).toBe(done)
    // A stray 'submitted' outside submitting changes nothing.
    expect(passwordFlow(fin, { type: 'submitted', ok: true })).toBe(fin)
  })

  it('createPasswordFlow awaits the submit action, then reports success or failure', async () => {
    const calls: string[] = []
    const ok = createPasswordFlow(async () => void calls.push('submit'), (s) => calls.push(s.step + (s.submitting ? '*' : '')))
    for (let i = 0; i < 4; i++) await ok.next()
    expect(calls).toEqual(['saving', 'confirming', 'finalizing', 'finalizing*', 'submit', 'done'])
    expect(ok.state.result).toBe('success')
    const bad = createPasswordFlow(async () => {
      throw new Error('frame refused')
    })
    for (let i = 0; i < 4; i++) await bad.next()
    expect(bad.state).toEqual({ step: 'done', submitting: false, result: 'failure' })
  })
})

describe('choosing the recovery screen (part 2 section 2)', () => {
  it('automatic recovery when enabled', () => {
    expect(chooseRecoveryScreen({ automatic: true }, { creating: true })).toEqual({ screen: 'automatic' })
  })
  it('password create or update when legacy or only one method; the splash skipped when resetting', () => {
    expect(chooseRecoveryScreen({ legacy: true }, { creating: true })).toEqual({ screen: 'password-create', skipSplash: false })
    expect(chooseRecoveryScreen({ userOwnedRecoveryOptions: ['user-passcode'] }, { creating: false })).toEqual({ screen: 'password-update', skipSplash: false })
    expect(chooseRecoveryScreen({ userOwnedRecoveryOptions: ['user-passcode'] }, { creating: false, resetting: true })).toEqual({
      screen: 'password-update',
      skipSplash: true,
    })
  })
  it('otherwise the selection, the cloud method in use excluded', () => {
    expect(chooseRecoveryScreen({}, { creating: true })).toEqual({ screen: 'select', options: ['google-drive', 'icloud', 'user-passcode'] })
    expect(chooseRecoveryScreen({}, { creating: false, current: 'google-drive' })).toEqual({ screen: 'select', options: ['icloud', 'user-passcode'] })
    expect(selectionOptions(['user-passcode', 'icloud'], 'icloud')).toEqual(['user-passcode'])
    expect(selectionOptions(undefined, 'user-passcode')).toEqual(['google-drive', 'icloud', 'user-passcode'])
  })
})

describe('recovery method to screen (part 2 section 2)', () => {
  it('user-passcode → password recovery; google-drive / icloud → OAuth recovery; privy silent; else failure', () => {
    expect(screenForMethod('user-passcode')).toEqual({ screen: 'password-recover' })
    expect(screenForMethod('google-drive')).toEqual({ screen: 'cloud', method: 'google-drive' })
    expect(screenForMethod('icloud')).toEqual({ screen: 'cloud', method: 'icloud' })
    expect(screenForMethod('privy')).toEqual({ screen: 'silent' })
    expect(screenForMethod('dropbox')).toEqual({ screen: 'failure' })
    expect(screenForMethod(undefined)).toEqual({ screen: 'failure' })
  })
})

describe('texts', () => {
  it('keeps the spec texts word for word', () => {
    expect(T.acknowledgement).toBe('I understand that if I lose my password and device, I will lose access to my account and my assets.')
    expect(T.invalidPassword).toBe('Invalid recovery password, please try again.')
    expect(T.cloudRecoveryFailed).toBe('Recovery with {provider} unsuccessful')
    expect(T.cloudBackupFailed).toBe('Back up with {provider} unsuccessful')
    expect(T.oauthMissingCodes).toBe('Authorization and state codes code must be set prior to calling authenicate.')
  })
})
