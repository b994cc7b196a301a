/**
 * How a recovery screen ends: by closing the modal's flow (opened on its own), or — inside
 * another flow such as the login's `authenticated` chain — by telling the caller (`onDone`),
 * which decides what comes next.
 */
import { PorticoError, type FlowResult } from 'portico'

export type OnDone = (result: FlowResult) => void

export function finisher(screen: { close(value?: unknown): void; dismiss(): void }, onDone?: OnDone) {
  return {
    ok(value?: unknown) {
      if (onDone) onDone({ ok: true, value })
      else screen.close(value)
    },
    cancel(error?: PorticoError) {
      if (onDone) onDone({ ok: false, error: error ?? new PorticoError('exited_update_flow', 'User exited the update flow.') })
      else screen.dismiss()
    },
  }
}
