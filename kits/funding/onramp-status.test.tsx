// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { definePlugin } from 'portico'
import { createTestKernel, renderScreen } from 'portico/testing'
import { OnrampStatus, type OnrampRun, type OnrampStatusProps } from './onramp-status'
import type { FundingPopup } from './popup'

afterEach(cleanup)

const TEXTS = {
  openingTitle: 'Opening Provider',
  openingDescription: 'Complete your purchase in the Provider window.',
  failure: 'Something went wrong adding funds.',
  popupBlocked: 'Unable to initialize flow',
  chooseAnotherMethod: 'Choose another method',
  continue: 'Continue',
}

const popup = (): FundingPopup & { close: ReturnType<typeof vi.fn> } => {
  const p = { closed: false, location: { href: 'about:blank' }, close: vi.fn(() => void (p.closed = true)) }
  return p
}

/** Open the body as a screen of a stand-in on-ramp plugin, with these params. */
async function open(start: OnrampStatusProps['start'], params: Record<string, unknown>, props: Partial<OnrampStatusProps> = {}) {
  const plugin = definePlugin({
    id: 'onramp-stub',
    kind: 'funding',
    setup: (ctx) => void ctx.screens.register({ id: 'onramp-stub-status', component: () => <OnrampStatus texts={TEXTS} start={start} {...props} /> }),
  })
  const t = await createTestKernel({ plugins: [plugin] })
  return renderScreen(t.kernel, 'onramp-stub-status', params, { intent: 'update' })
}

describe('the on-ramp status body', () => {
  it("no popup: 'Unable to initialize flow' at once, and the provider never starts", async () => {
    const start = vi.fn(async () => {})
    await open(start, {})
    expect((await screen.findByRole('alert')).textContent).toBe(TEXTS.popupBlocked)
    expect(screen.getByRole('button', { name: TEXTS.chooseAnotherMethod })).toBeTruthy()
    expect(start).not.toHaveBeenCalled()
  })

  it('not ready (no request or config): stays on the opening view', async () => {
    await open(null, { popup: popup() })
    expect(await screen.findByText(TEXTS.openingTitle)).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it("a start that fails closes the popup and shows the provider's failure (under its own title when given)", async () => {
    const p = popup()
    await open(() => Promise.reject(new Error('sign failed')), { popup: p }, { failedTitle: 'Failure title' })
    expect((await screen.findByRole('alert')).textContent).toBe(TEXTS.failure)
    expect(p.close).toHaveBeenCalled()
  })

  it("shows the provider's views; Continue closes the flow with the view's result; the stop runs when the screen goes away", async () => {
    let run!: OnrampRun
    const stop = vi.fn()
    const view = await open(
      async (r) => {
        run = r
        r.show({ title: 'In Progress', description: 'Go back to Provider.' })
        return stop
      },
      { popup: popup() },
    )
    expect(await screen.findByText('Go back to Provider.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: TEXTS.continue })).toBeNull()
    run.show({ title: 'Funded', done: true, close: { method: 'card', provider: 'stub' } })
    fireEvent.click(await screen.findByRole('button', { name: TEXTS.continue }))
    await expect(view.flow).resolves.toEqual({ ok: true, value: { method: 'card', provider: 'stub' } })
    await vi.waitFor(() => expect(stop).toHaveBeenCalled())
    expect(run.stopped()).toBe(true)
  })
})
