// @vitest-environment happy-dom
/** The modal's preload (./preload.ts at mount, ./idle.ts at idle): lazy landing loaded before the first open, styles warmed. */
import { createElement, useEffect, useLayoutEffect } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { definePlugin, type PorticoPlugin } from 'portico'
import { PorticoProvider, ScreenLayout, screenComponent, useKernel } from 'portico/ui/screens'
import { createTestKernel } from 'portico/testing'
import { loadedDialog, preloadScreen, resolvedComponent } from './preload'
import { whenIdle } from './idle'
import { warmStyles } from './warm'
import { warmRender } from './warm-render'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

function LazyLanding() {
  return <ScreenLayout title="Lazy landing">body</ScreenLayout>
}
function OtherScreen() {
  return <ScreenLayout title="Other screen">body</ScreenLayout>
}

/** Registers the landing and one more screen lazily (a host may register its own landing first). */
function lazyScreens(counts: { landing: number; other: number }): PorticoPlugin {
  return definePlugin({
    id: 'lazy-screens',
    kind: 'feature',
    setup(ctx) {
      ctx.hooks.loginMethods.tap('lazy-screens', (list) => [...list, { id: 'alpha', label: 'Alpha', group: 'web2', screen: 'other' }])
      const a = ctx.screens.register({ id: 'landing', load: async () => (counts.landing++, { default: LazyLanding }) })
      const b = ctx.screens.register({ id: 'other', load: async () => (counts.other++, { default: OtherScreen }) })
      return () => {
        a()
        b()
      }
    },
  })
}

describe('idle preload', () => {
  it('whenIdle uses requestIdleCallback, or a timer without it; both cancel', async () => {
    const ric = vi.fn((cb: () => void) => (setTimeout(cb, 0), 7))
    const cic = vi.fn()
    vi.stubGlobal('requestIdleCallback', ric)
    vi.stubGlobal('cancelIdleCallback', cic)
    const task = vi.fn()
    whenIdle(task)()
    expect(ric).toHaveBeenCalledTimes(1)
    expect(cic).toHaveBeenCalledWith(7)
    vi.unstubAllGlobals()
    vi.stubGlobal('requestIdleCallback', undefined)
    vi.useFakeTimers()
    try {
      const t2 = vi.fn()
      whenIdle(t2, 50)
      const t3 = vi.fn()
      whenIdle(t3, 50)()
      vi.advanceTimersByTime(60)
      expect(t2).toHaveBeenCalledTimes(1)
      expect(t3).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
      vi.unstubAllGlobals()
    }
  })

  it('preloadScreen loads a lazy screen once; screenComponent keeps one identity before and after loading', async () => {
    const load = vi.fn(async () => ({ default: LazyLanding }))
    const def = { id: 'x', load }
    const before = screenComponent(def)
    expect(resolvedComponent(def)).toBeUndefined()
    await Promise.all([preloadScreen(def), preloadScreen(def)])
    await preloadScreen(def)
    expect(load).toHaveBeenCalledTimes(1)
    expect(resolvedComponent(def)).toBe(LazyLanding)
    // The same lazy wrapper (a screen mounts once); preloaded, it renders without suspending.
    expect(screenComponent(def)).toBe(before)
    render(<>{createElement(before!, { id: 'x', params: {} })}</>)
    expect(screen.getByText('Lazy landing')).not.toBeNull()
  })

  it('as the Modal mounts it preloads a lazy landing, so the first open renders it at once (no fallback)', async () => {
    const counts = { landing: 0, other: 0 }
    const t = await createTestKernel({ plugins: [lazyScreens(counts)], app: { login_methods: ['alpha'] } })
    render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }}>app</PorticoProvider>)
    // Both chunks start loading as the Modal mounts: the dialog's and the landing's.
    await waitFor(() => expect(resolvedComponent(t.kernel.screens.get('landing')!)).toBe(LazyLanding))
    await waitFor(() => expect(loadedDialog()).not.toBeNull())
    expect(counts.landing).toBe(1)
    expect(counts.other).toBe(0)

    act(() => void t.kernel.screens.open('landing', {}).catch(() => {}))
    expect(screen.queryByText('Lazy landing')).not.toBeNull()
    expect(document.querySelector('.portico-loading')).toBeNull()

    // Control: a lazy screen that was not preloaded shows the loading fallback first.
    act(() => t.kernel.screens.replace('other', {}))
    expect(document.querySelector('.portico-loading')).not.toBeNull()
    expect(await screen.findByText('Other screen')).not.toBeNull()
  })

  it("at idle, once ready, the enabled landing entries' own chunks load (LoginMethod.preload); disabled ones do not", async () => {
    const loads = { alpha: 0, beta: 0 }
    const entries = definePlugin({
      id: 'entries',
      kind: 'feature',
      setup(ctx) {
        ctx.hooks.loginMethods.tap('entries', (list) => [
          ...list,
          { id: 'alpha', label: 'Alpha', group: 'web2', screen: 'other', preload: async () => void loads.alpha++ },
          { id: 'beta', label: 'Beta', group: 'web2', screen: 'other', preload: async () => void loads.beta++ },
        ])
      },
    })
    const t = await createTestKernel({ plugins: [entries], app: { login_methods: ['alpha'] } })
    render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }}>app</PorticoProvider>)
    await waitFor(() => expect(loads.alpha).toBe(1))
    expect(loads.beta).toBe(0)
  })

  it('at idle the styles are warmed once, with the theme, through the dialog chunk; not while the modal is open', async () => {
    const warmed: string[] = []
    const append = vi.spyOn(document.body, 'appendChild').mockImplementation(function (this: HTMLElement, node: Node) {
      const el = node as HTMLElement
      if (el.hasAttribute?.('data-portico-warmup')) warmed.push(el.getAttribute('data-theme') ?? '')
      return HTMLElement.prototype.appendChild.call(this, node) as never
    })
    const t = await createTestKernel({ plugins: [lazyScreens({ landing: 0, other: 0 })], app: { login_methods: ['alpha'], theme: 'dark' } })
    const view = render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }}>app</PorticoProvider>)
    await vi.waitFor(() => expect(warmed).toEqual(['dark']))
    view.unmount()

    // Opened before the idle task runs: no warm-up (the real dialog is there).
    warmed.length = 0
    let idle: (() => void) | null = null
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => ((idle = cb), 1))
    try {
      const t2 = await createTestKernel({ plugins: [lazyScreens({ landing: 0, other: 0 })], app: { login_methods: ['alpha'] } })
      render(<PorticoProvider kernel={t2.kernel} ui={{ sleep: async () => {} }}>app</PorticoProvider>)
      act(() => void t2.kernel.screens.open('landing', {}).catch(() => {}))
      expect(await screen.findByText('Lazy landing')).not.toBeNull()
      expect(idle).not.toBeNull()
      act(() => idle!())
      await import('./dialog') // the idle task's import of the same module has resolved too
      await new Promise((r) => setTimeout(r, 0))
      expect(warmed).toEqual([])
    } finally {
      vi.unstubAllGlobals()
      append.mockRestore()
    }
  })

  it('warmStyles inserts a hidden, inert skeleton and removes it in the same task; focus stays put', () => {
    const button = document.createElement('button')
    document.body.appendChild(button)
    button.focus()
    const added: Element[] = []
    const append = vi.spyOn(document.body, 'appendChild').mockImplementation(function (this: HTMLElement, node: Node) {
      added.push(node as Element)
      return HTMLElement.prototype.appendChild.call(this, node) as never
    })
    expect(warmStyles('dark')).toBe(true)
    append.mockRestore()
    expect(added).toHaveLength(1)
    const root = added[0] as HTMLElement
    expect(root.className).toBe('portico-root')
    expect(root.getAttribute('data-theme')).toBe('dark')
    expect(root.getAttribute('aria-hidden')).toBe('true')
    expect(root.style.getPropertyValue('visibility')).toBe('hidden')
    expect(root.querySelector('.portico-dialog .portico-title')?.textContent).toBe('Log in or sign up')
    expect(root.isConnected).toBe(false)
    expect(document.querySelector('[data-portico-warmup]')).toBeNull()
    expect(document.activeElement).toBe(button)
    button.remove()
  })
})

describe('warm render (the first open finds its code compiled)', () => {
  /** A landing that counts its renders and its effects, and tries to navigate while rendering. */
  function probeLanding(counts: { renders: number; effects: number }, opened: string[]): PorticoPlugin {
    function Probe() {
      const kernel = useKernel()
      counts.renders++
      useEffect(() => void counts.effects++, [])
      useLayoutEffect(() => void counts.effects++, [])
      if (counts.renders === 1) void kernel.screens.open('other').then(() => opened.push('other'))
      return <ScreenLayout title="Probe landing">body</ScreenLayout>
    }
    return definePlugin({
      id: 'probe-landing',
      kind: 'feature',
      setup(ctx) {
        ctx.hooks.loginMethods.tap('probe-landing', (list) => [...list, { id: 'alpha', label: 'Alpha', group: 'web2', screen: 'other' }])
        ctx.screens.register({ id: 'landing', load: async () => ({ default: Probe }) })
        ctx.screens.register({ id: 'other', component: OtherScreen })
      },
    })
  }

  it('at idle, once ready and closed, renders the dialog on the landing once, off the page: no effects, no DOM, no navigation', async () => {
    const counts = { renders: 0, effects: 0 }
    const opened: string[] = []
    const t = await createTestKernel({ plugins: [probeLanding(counts, opened)], app: { login_methods: ['alpha'] } })
    render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }}>app</PorticoProvider>)
    await waitFor(() => expect(counts.renders).toBeGreaterThan(0))
    expect(counts.effects).toBe(0)
    expect(document.querySelector('[role=dialog]')).toBeNull()
    expect(screen.queryByText('Probe landing')).toBeNull()
    expect(t.kernel.screens.getState().open).toBe(false)
    expect(opened).toEqual([])
    expect(t.warnings).toEqual([])
    // The real open renders the landing, with its effects, as before.
    act(() => void t.kernel.screens.open('landing'))
    expect(await screen.findByText('Probe landing')).not.toBeNull()
    await waitFor(() => expect(counts.effects).toBe(2))
  })

  it('renders nothing for a screen that is not registered', async () => {
    const t = await createTestKernel({ plugins: [], app: {} })
    const ui = { subscribe: () => () => {}, getSnapshot: () => ({}) } as never
    expect(warmRender({ kernel: t.kernel, ui }, 'no-such-screen')).toBe(false)
  })
})
