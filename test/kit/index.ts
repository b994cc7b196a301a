/**
 * portico/testing — the test kit. `createTestKernel()` builds a real kernel whose only fake
 * is the fetch boundary, so a plugin is tested exactly as it runs.
 */
import { createPortico, memoryStorage, type Portico, type PorticoConfig, type PorticoPlugin } from '../../kernel/index'
import type { WireAppConfig, WireAuthResponse, WireUser } from '../../kernel/wire'
import { createFetchDouble, type FetchDouble } from './fetch-double'
import { TEST_APP_ID, appConfig, authResponse, wireUser } from './fixtures'

export * from './fetch-double'
export * from './fixtures'

export interface TestKernelOptions {
  plugins?: PorticoPlugin[]
  /** Host config on top of the test defaults. */
  config?: Partial<PorticoConfig>
  /** What GET /apps/{appId} answers (merged over a default app with e-mail on). */
  app?: Partial<WireAppConfig>
  /** Start logged in as this user (a stored refresh token; `ready()` refreshes it). */
  user?: WireUser
  /** Call `ready()` before returning (default true). */
  ready?: boolean
  /** The page address `ready()` offers to the `returnPath` hook (default: none). */
  url?: string
}

export interface TestKernel {
  kernel: Portico
  /** The transport double: add routes with `net.on(...)`, read `net.calls`. */
  net: FetchDouble
  /** Make the next login call answer with this user (helper for plugin flows). */
  loginAs(user?: WireUser): WireAuthResponse
  warnings: string[]
  /** The page address after the kernel stripped what a plugin claimed (`url` option). */
  location: { href: string }
}

export async function createTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  const net = createFetchDouble()
  const storage = memoryStorage()
  const warnings: string[] = []
  net.on('GET', '/apps/:id', () => appConfig(options.app))
  net.on('POST', '/sessions/logout', {})
  if (options.user) {
    const res = authResponse(options.user)
    storage.setItem(`portico:${TEST_APP_ID}:refresh_token`, res.refresh_token!)
    net.on('POST', '/sessions', res)
    net.on('GET', '/users/me', { user: options.user })
  } else {
    net.on('POST', '/sessions', { status: 401, body: { code: 'missing_or_invalid_token', error: 'Invalid refresh token' } })
  }
  const location = {
    href: options.url ?? '',
    replace(url: string) {
      location.href = new URL(url, location.href).href
    },
  }
  const kernel = createPortico(
    {
      appId: TEST_APP_ID,
      apiUrl: 'http://portico.test',
      storage,
      fetch: net.fetch,
      ...options.config,
      plugins: options.plugins ?? [],
    },
    {
      locks: null,
      channel: null,
      analyticsId: 'test-analytics-id',
      sleep: async () => {},
      location: options.url ? location : null,
      wakeTarget: null,
      deferStart: true,
    },
  )
  // Listen before the plugins set up, so their warnings are caught too.
  kernel.events.on('warning', (w) => warnings.push(w.message))
  kernel.start()
  if (options.ready !== false) await kernel.ready()
  return {
    kernel,
    net,
    warnings,
    location,
    loginAs(user = wireUser()) {
      return authResponse(user, { is_new_user: true })
    },
  }
}

export { TEST_APP_ID, wireUser, authResponse, appConfig }
