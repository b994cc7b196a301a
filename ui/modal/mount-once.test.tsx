// @vitest-environment happy-dom
/** The modal mounts a lazily loaded screen once: not its loader and then the loaded component. */
import { afterEach, describe, expect, it } from 'vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import { useEffect } from 'react'
import { definePlugin, type PorticoPlugin } from 'portico'
import { PorticoProvider, ScreenLayout } from 'portico/ui/screens'
import { createTestKernel } from 'portico/testing'

afterEach(() => cleanup())

function counted(counts: { mounts: number; unmounts: number }): PorticoPlugin {
  function Counted() {
    useEffect(() => {
      counts.mounts++
      return () => void counts.unmounts++
    }, [])
    return <ScreenLayout title="Counted screen">body</ScreenLayout>
  }
  function Next() {
    return <ScreenLayout title="Next screen">body</ScreenLayout>
  }
  return definePlugin({
    id: 'counted',
    kind: 'feature',
    setup(ctx) {
      ctx.hooks.loginMethods.tap('counted', (list) => [...list, { id: 'alpha', label: 'Alpha', group: 'web2', screen: 'counted' }])
      ctx.screens.register({ id: 'counted', load: async () => ({ default: Counted }) })
      ctx.screens.register({ id: 'next', load: async () => ({ default: Next }) })
    },
  })
}

describe('a lazily loaded screen mounts once', () => {
  it('opened at start-up, before the dialog and the screen are preloaded; later navigator updates keep it mounted', async () => {
    const counts = { mounts: 0, unmounts: 0 }
    const t = await createTestKernel({ plugins: [counted(counts)], app: { login_methods: ['alpha'] } })
    const ui = { sleep: async () => {} }
    const { rerender } = render(<PorticoProvider kernel={t.kernel} ui={ui}>app</PorticoProvider>)
    act(() => void t.kernel.screens.open('counted', {}).catch(() => {}))
    expect(await screen.findByText('Counted screen')).not.toBeNull()
    // The host re-renders (its own state, the provider's start-up): the modal renders again.
    rerender(<PorticoProvider kernel={t.kernel} ui={ui}>app, again</PorticoProvider>)
    expect(await screen.findByText('app, again')).not.toBeNull()
    expect(screen.getByText('Counted screen')).not.toBeNull()
    expect(counts).toEqual({ mounts: 1, unmounts: 0 })
    // Going on unmounts it once.
    act(() => t.kernel.screens.replace('next', {}))
    expect(await screen.findByText('Next screen')).not.toBeNull()
    expect(counts).toEqual({ mounts: 1, unmounts: 1 })
  })
})
