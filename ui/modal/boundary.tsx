import { Component, type ReactNode } from 'react'
import type { Portico } from 'portico'

/** A screen that throws while rendering (or fails to load) becomes the error screen. */
export class ScreenBoundary extends Component<{ kernel: Portico; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override componentDidCatch(error: unknown) {
    const nav = this.props.kernel.screens
    const current = nav.getState().current?.id
    this.props.kernel.events.emit('warning', { message: `Screen '${current}' failed: ${String((error as Error)?.message ?? error)}`, source: 'ui' })
    if (current === 'error') nav.dismiss()
    else nav.error(error)
  }
  override render() {
    return this.state.failed ? null : this.props.children
  }
}
