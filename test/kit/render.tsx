/**
 * `renderScreen()`: render one plugin screen inside the real modal shell, the way a user sees
 * it, with @testing-library/react. Needs a DOM test environment (`// @vitest-environment
 * happy-dom` or jsdom). Kept out of `test/kit/index.ts`, which stays React-free.
 *
 * ```tsx
 * const t = await createTestKernel({ plugins: [myLogin()], app: { login_methods: ['my-login'] } })
 * const view = await renderScreen(t.kernel, 'my-login-start', { hint: 'x' })
 * fireEvent.click(view.getByRole('button', { name: 'Continue' }))
 * expect(await view.flow).toMatchObject({ ok: true })
 * ```
 */
import { act, render, screen, type RenderResult } from '@testing-library/react'
import type { FlowResult, Intent, Portico } from 'portico'
import { PorticoProvider, type AttachOptions } from 'portico/ui'

export interface RenderScreenOptions {
  /** 'login' (default), 'link' or 'update'. */
  intent?: Intent
  /** UI options; by default the success delays (1400 ms, 900 ms) are skipped. */
  ui?: AttachOptions
}

export interface RenderedScreen extends RenderResult {
  /** The flow's result: resolves when the screen closes the modal (or the user dismisses it). */
  flow: Promise<FlowResult>
  /** The dialog element the screen is drawn in. */
  dialog: HTMLElement
}

/**
 * Open `screenId` with `params` on the kernel's navigator, render the provider and modal, and
 * resolve once the dialog shows. The screen must be registered (a plugin's, or a generic
 * one such as 'landing').
 */
export async function renderScreen(
  kernel: Portico,
  screenId: string,
  params: Record<string, unknown> = {},
  options: RenderScreenOptions = {},
): Promise<RenderedScreen> {
  // The provider attaches the UI, which registers the generic screens ('landing', 'error' ...).
  const view = render(<PorticoProvider kernel={kernel} ui={options.ui ?? { sleep: async () => {} }} />)
  if (!kernel.screens.has(screenId)) {
    view.unmount()
    throw new Error(
      `renderScreen: no screen named '${screenId}' is registered. Registered: ${kernel.screens.ids.join(', ') || '(none)'}.`,
    )
  }
  let flow!: Promise<FlowResult>
  act(() => {
    flow = kernel.screens.open(screenId, params, { intent: options.intent ?? 'login' })
  })
  const dialog = await screen.findByRole('dialog')
  return Object.assign(view, { flow, dialog })
}
