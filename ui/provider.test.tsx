// @vitest-environment happy-dom
/**
 * The provider under contract v2: it owns the lifecycle of a kernel it builds (StrictMode's
 * double mount leaks nothing), later config props apply, `login()` before start-up opens the
 * modal on a loading screen (an error with 'Retry now' while the API is down), texts are
 * overridable and `theme: 'system'` follows the OS.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { StrictMode } from 'react'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { definePlugin, type PorticoConfig } from 'portico'
import { PorticoProvider, ScreenLayout, useLogin, usePlugin, usePluginState, usePortico } from 'portico/ui/screens'
import { createFetchDouble, appConfig, TEST_APP_ID, type FetchDouble } from 'portico/testing'

afterEach(() => cleanup())

declare module 'portico' {
  interface PluginApis {
    tally: { bump(): void }
  }
}

function counting() {
  const counts = { setups: 0, teardowns: 0 }
  const plugin = definePlugin({
    id: 'tally',
    kind: 'login',
    setup(ctx) {
      counts.setups++
      const store = ctx.store({ n: 0 })
      ctx.provide({ bump: () => store.set((s) => ({ n: s.n + 1 })) })
      ctx.hooks.loginMethods.tap('tally', (list) => [...list, { id: 'tally', label: 'Tally', group: 'web2', screen: 'tally-screen' }])
      ctx.screens.register({ id: 'tally-screen', component: () => <ScreenLayout title="Tally screen" /> })
      return () => void counts.teardowns++
    },
  })
  return { plugin, counts }
}

function serverUp(net: FetchDouble, up: () => boolean = () => true) {
  net.on('GET', '/apps/:id', () => (up() ? appConfig({ login_methods: ['tally'] }) : { status: 503, body: { code: 'unavailable', error: 'down' } }))
  net.on('POST', '/sessions', { status: 401, body: { code: 'missing_or_invalid_token', error: 'no' } })
  return net
}

function App() {
  const { ready, status } = usePortico()
  const { login } = useLogin()
  const tally = usePlugin('tally')
  const state = usePluginState<{ n: number }>('tally')
  return (
    <div>
      <p>{ready ? 'ready' : status}</p>
      <p>count {state?.n ?? '-'}</p>
      <button onClick={() => tally.bump()}>bump</button>
      <button onClick={() => void login()}>open</button>
    </div>
  )
}

const base = (net: FetchDouble): Omit<PorticoConfig, 'appId' | 'plugins'> => ({ apiUrl: 'http://portico.test', fetch: net.fetch })

describe('PorticoProvider owns the kernel it builds', () => {
  it('under StrictMode: plugin setups equal teardowns after unmount, and the plugin API and state work', async () => {
    const { plugin, counts } = counting()
    const net = serverUp(createFetchDouble())
    const view = render(
      <StrictMode>
        <PorticoProvider appId={TEST_APP_ID} config={base(net)} plugins={[plugin]}>
          <App />
        </PorticoProvider>
      </StrictMode>,
    )
    await screen.findByText('ready')
    fireEvent.click(screen.getByText('bump'))
    await screen.findByText('count 1')
    view.unmount()
    expect(counts.setups).toBeGreaterThan(0)
    expect(counts.teardowns).toBe(counts.setups)
  })

  it('applies later config props (appearance, texts) without a remount', async () => {
    const { plugin } = counting()
    const net = serverUp(createFetchDouble())
    const props = (theme: 'light' | 'dark', header?: string) => ({ ...base(net), appearance: { theme, ...(header ? { landingHeader: header } : {}) } })
    const view = render(
      <PorticoProvider appId={TEST_APP_ID} config={props('light')} plugins={[plugin]}>
        <App />
      </PorticoProvider>,
    )
    await screen.findByText('ready')
    fireEvent.click(screen.getByText('open'))
    await screen.findByRole('dialog')
    expect(document.querySelector('[data-portico-modal]')?.getAttribute('data-theme')).toBe('light')
    view.rerender(
      <PorticoProvider appId={TEST_APP_ID} config={props('dark', 'Welcome back')} plugins={[plugin]}>
        <App />
      </PorticoProvider>,
    )
    await waitFor(() => expect(document.querySelector('[data-portico-modal]')?.getAttribute('data-theme')).toBe('dark'))
    await screen.findByText('Welcome back')
  })

  it("theme 'system' follows the OS colour scheme", async () => {
    const listeners = new Set<() => void>()
    let dark = true
    vi.stubGlobal('matchMedia', (q: string) => ({
      get matches() {
        return q.includes('dark') && dark
      },
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
    }))
    try {
      const { plugin } = counting()
      const net = serverUp(createFetchDouble())
      render(
        <PorticoProvider appId={TEST_APP_ID} config={{ ...base(net), appearance: { theme: 'system' } }} plugins={[plugin]}>
          <App />
        </PorticoProvider>,
      )
      await screen.findByText('ready')
      fireEvent.click(screen.getByText('open'))
      await screen.findByRole('dialog')
      expect(document.querySelector('[data-portico-modal]')?.getAttribute('data-theme')).toBe('dark')
      dark = false
      act(() => listeners.forEach((l) => l()))
      expect(document.querySelector('[data-portico-modal]')?.getAttribute('data-theme')).toBe('light')
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('login() before start-up opens the modal at once; while the API is down it offers Retry, then moves on to the landing', async () => {
    let up = false
    const net = serverUp(createFetchDouble(), () => up)
    const { plugin } = counting()
    render(
      <PorticoProvider appId={TEST_APP_ID} config={{ ...base(net), texts: { ui: { retryNow: 'Try now' } } }} plugins={[plugin]}>
        <App />
      </PorticoProvider>,
    )
    fireEvent.click(screen.getByText('open'))
    await screen.findByRole('dialog')
    // The transport retries first (500 + 1500 + 4500 ms), then the kernel reports and waits.
    const retry = await screen.findByRole('button', { name: 'Try now' }, { timeout: 15_000 })
    expect(screen.getByText('Could not reach the server. Check your connection; we keep trying.')).toBeTruthy()
    up = true
    fireEvent.click(retry)
    await screen.findByText('Tally', {}, { timeout: 15_000 })
    expect(screen.getByText('ready')).toBeTruthy()
  }, 40_000)
})
