// @vitest-environment happy-dom
/**
 * The lifecycle both transaction screens share (screens/flow.tsx), through the Solana screen
 * with a scripted session: a failed preparation shows the error screen and 'Try again'
 * prepares again; a sign-only method shows 'Success' and closes with the result; the step
 * counter and Continue walk the instructions. The chains-backed runs are in
 * test/approvals/approvals-chains.test.tsx.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { PorticoProvider } from 'portico/ui'
import { createTestKernel } from 'portico/testing'
import { approvals } from '../index'
import { APPROVALS_TEXTS as T } from '../strings'
import type { SolanaReview, SolanaSession } from '../request'

afterEach(cleanup)

const A = '11111111111111111111111111111111'
const review = (n: number): SolanaReview => ({
  cluster: 'localnet',
  rpcUrl: 'http://svm.test',
  missing: 0n,
  instructions: Array.from({ length: n }, () => ({ type: 'unknown', programId: A }) as never),
  fee: 5000n,
  feeText: '0.000005 SOL',
  balance: 10n ** 9n,
  balanceText: '1 SOL',
  insufficient: false,
  simulationError: null,
})

async function open(session: SolanaSession) {
  const t = await createTestKernel({ plugins: [approvals()] })
  render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }} />)
  let result!: Promise<unknown>
  act(() => void (result = t.kernel.screens.open('approvals-solana-transaction', { session })))
  return result
}

const click = async (name: string) => {
  const buttons = await screen.findAllByRole('button', { name })
  fireEvent.click(buttons.find((b) => !b.hasAttribute('data-portico-close')) ?? buttons[0])
}

describe('transaction flow (shared by the Ethereum and Solana screens)', () => {
  it("a failed preparation shows 'Something went wrong' and the message; 'Try again' prepares again", async () => {
    let calls = 0
    const session: SolanaSession = {
      kind: 'solana',
      method: 'solana_signAndSendTransaction',
      address: A,
      uiOptions: {},
      ready: async () => {},
      prepare: async () => {
        if (++calls === 1) throw new Error('blockhash not found')
        return review(1)
      },
      submit: async () => ({ result: 'sig', signature: null, explorerUrl: null }),
      closed: async () => null,
    }
    void open(session)
    expect(await screen.findByText('blockhash not found')).toBeTruthy()
    expect(screen.getAllByText(T.somethingWentWrong).length).toBeGreaterThan(0)
    await click(T.tryAgain)
    expect(await screen.findByRole('button', { name: T.approve })).toBeTruthy()
    expect(calls).toBe(2)
  })

  it("steps through the instructions with 'Step n of m' and Continue; a sign-only method closes with the result after 'Success'", async () => {
    const session: SolanaSession = {
      kind: 'solana',
      method: 'solana_signTransaction',
      address: A,
      uiOptions: {},
      ready: async () => {},
      prepare: async () => review(2),
      submit: async () => ({ result: 'signed-tx', signature: null, explorerUrl: null }),
      closed: async () => null,
    }
    const result = open(session)
    expect(await screen.findByText('Step 1 of 2')).toBeTruthy()
    await click(T.continue)
    expect(await screen.findByText('Step 2 of 2')).toBeTruthy()
    expect(screen.getByText('0.000005 SOL')).toBeTruthy()
    await click(T.approve)
    expect(await screen.findByText(T.success)).toBeTruthy()
    await expect(result).resolves.toMatchObject({ value: 'signed-tx' })
  })
  it("a failed send shows the failure's code, or no 'Error code' row when it has none; Retry prepares again (issue 25)", async () => {
    let prepared = 0
    let sent = 0
    const session: SolanaSession = {
      kind: 'solana',
      method: 'solana_signAndSendTransaction',
      address: A,
      uiOptions: {},
      ready: async () => {},
      prepare: async () => (prepared++, review(1)),
      closed: async () => null,
      submit: async () => {
        if (++sent === 1) throw { code: 'AlreadyProcessed', message: T.solanaAlreadyProcessed, hash: null }
        throw { code: null, message: T.solanaNotSent, hash: null }
      },
    }
    void open(session)
    await click(T.approve)
    expect((await screen.findByTestId('approvals-error-code')).textContent).toBe('AlreadyProcessed')
    expect(screen.getByTestId('approvals-error-message').textContent).toBe(T.solanaAlreadyProcessed)
    await click(T.retryTransaction)
    expect(prepared).toBe(2)
    await click(T.approve)
    expect((await screen.findByTestId('approvals-error-message')).textContent).toBe(T.solanaNotSent)
    expect(screen.queryByTestId('approvals-error-code')).toBeNull()
    expect(screen.queryByText(T.errorCode)).toBeNull()
  })
  it('focus stays in the dialog when the screen swaps its content (Approve → the error panel), and Escape still closes (issue 25)', async () => {
    const session: SolanaSession = {
      kind: 'solana',
      method: 'solana_signAndSendTransaction',
      address: A,
      uiOptions: {},
      ready: async () => {},
      prepare: async () => review(1),
      closed: async () => null,
      submit: async () => {
        throw { code: 'AlreadyProcessed', message: T.solanaAlreadyProcessed, hash: null }
      },
    }
    const result = open(session)
    const approve = (await screen.findAllByRole('button', { name: T.approve })).find((b) => !b.hasAttribute('data-portico-close'))!
    approve.focus()
    fireEvent.click(approve)
    await screen.findByTestId('approvals-error-message')
    const dialog = screen.getByRole('dialog')
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    await expect(result).resolves.toMatchObject({ ok: false })
  })
})
