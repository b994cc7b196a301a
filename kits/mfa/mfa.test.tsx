// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { PorticoError } from 'portico'
import { PorticoProvider } from 'portico/ui'
import { createTestKernel } from 'portico/testing'
import type { ReactNode } from 'react'
import { MFA_CODE_TEXTS, validateMfaCode } from './code'
import MfaEnrolmentCode, { MfaCodeBoxes } from './code-boxes'
import { MFA_ERRORS, mfaError } from './ids'
import { MfaCodeBoxes as LazyBoxes } from './index'

afterEach(cleanup)

/** Render inside a kernel's provider (the boxes read the app's texts). */
async function mount(el: ReactNode) {
  const t = await createTestKernel()
  return render(<PorticoProvider kernel={t.kernel}>{el}</PorticoProvider>)
}

describe('the MFA code rule (part 2 section 5): the code kit\'s rule with the MFA texts', () => {
  it('numeric only, exactly 6, whitespace stripped, strings only', () => {
    expect(validateMfaCode(' 12 34\t56 ')).toBe('123456')
    expect(() => validateMfaCode('12a456')).toThrow('Passcode can only be numbers')
    expect(() => validateMfaCode('abcdef')).toThrow('Passcode can only be numbers')
    expect(() => validateMfaCode('12345')).toThrow('Passcode must be exactly 6 numbers')
    expect(() => validateMfaCode('1234567')).toThrow('Passcode must be exactly 6 numbers')
    expect(() => validateMfaCode(123456 as unknown as string)).toThrow('Passcode can only be numbers')
  })

  it("takes the app's overrides", () => {
    expect(() => validateMfaCode('12a456', { codeNumeric: 'digits!' })).toThrow('digits!')
    expect(() => validateMfaCode('123', { codeLength: 'six!' })).toThrow('six!')
    expect(() => validateMfaCode('123', { codeNumeric: 'digits!' })).toThrow(MFA_CODE_TEXTS.codeLength)
  })

  it('refuses with invalid_data', () => {
    let error: unknown
    try {
      validateMfaCode('12')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(PorticoError)
    expect((error as PorticoError).code).toBe('invalid_data')
  })
})

describe('the code boxes', () => {
  it('six boxes labelled with the MFA texts', async () => {
    await mount(<MfaCodeBoxes onComplete={() => {}} />)
    expect(screen.getAllByRole('textbox')).toHaveLength(6)
    expect(screen.getAllByLabelText(new RegExp(MFA_CODE_TEXTS.codeLabel)).length).toBeGreaterThan(0)
  })

  it('the entry loads them on first render', async () => {
    await mount(<LazyBoxes onComplete={() => {}} />)
    expect(await screen.findAllByRole('textbox')).toHaveLength(6)
  })
})

describe("a method's enrolment code step", () => {
  const texts = { invalidCode: 'Not valid', unknownError: 'Unknown' }
  const type = async (code: string) => {
    const boxes = screen.getAllByRole('textbox')
    await act(async () => {
      fireEvent.paste(boxes[0], { clipboardData: { getData: () => code } })
    })
  }

  it.each([
    [mfaError(MFA_ERRORS.invalid, 'server words'), 'Not valid'],
    [new PorticoError('invalid_data', 'Passcode must be exactly 6 numbers'), 'Passcode must be exactly 6 numbers'],
    [new PorticoError('network_error', 'offline'), 'Unknown'],
  ])('a refused code (%s) shows its message and clears the boxes', async (error, message) => {
    const submit = vi.fn(async () => Promise.reject(error))
    await mount(<MfaEnrolmentCode submit={submit} texts={texts} />)
    await type('123456')
    expect(submit).toHaveBeenCalledWith('123456')
    expect(await screen.findByText(message)).toBeTruthy()
    await waitFor(() => expect(screen.getAllByRole('textbox').every((b) => (b as HTMLInputElement).value === '')).toBe(true))
  })

  it('an accepted code shows no message', async () => {
    const submit = vi.fn(async () => {})
    await mount(<MfaEnrolmentCode submit={submit} texts={texts} />)
    await type('654321')
    await waitFor(() => expect(submit).toHaveBeenCalledWith('654321'))
    expect(screen.queryByText('Not valid')).toBeNull()
    expect(screen.queryByText('Unknown')).toBeNull()
  })
})
