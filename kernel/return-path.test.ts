/** The return path (./return-path.ts): offered after ready, claimed parameters stripped before the flow finishes. */
import { describe, expect, it, vi } from 'vitest'
import { createTestKernel } from '../test/kit/index'
import { definePlugin, PorticoError } from './index'

describe('start-up return path', () => {
  const claimer = (finish = vi.fn()) =>
    definePlugin({
      id: 'returner',
      kind: 'login',
      setup(ctx) {
        ctx.hooks.returnPath.tap('returner', ({ url }) =>
          url.searchParams.has('code') ? { params: ['code', 'state'], hashParams: ['tok'], finish: () => finish(url.searchParams.get('code')) } : undefined,
        )
      },
    })

  it('offers the page address after ready; the claimed parameters leave the address before the flow finishes', async () => {
    const finish = vi.fn()
    const { kernel, location } = await createTestKernel({ plugins: [claimer(finish)], url: 'https://app.test/cb?keep=1&code=abc&state=s1#tok=x&other=y' })
    expect(location.href).toBe('https://app.test/cb?keep=1#other=y')
    await kernel.returnFlow
    expect(finish).toHaveBeenCalledWith('abc')
  })

  it('leaves an address nobody claims alone', async () => {
    const { kernel, location } = await createTestKernel({ plugins: [claimer()], url: 'https://app.test/?page=2' })
    expect(location.href).toBe('https://app.test/?page=2')
    expect(kernel.returnFlow).toBeNull()
  })

  it("reports a failing return flow through the 'error' event, without failing ready()", async () => {
    const finish = vi.fn(() => Promise.reject(new PorticoError('oauth_unexpected', 'bad state')))
    const { kernel } = await createTestKernel({ plugins: [claimer(finish)], url: 'https://app.test/?code=1&state=2', ready: false })
    const onError = vi.fn()
    kernel.events.on('error', onError)
    await kernel.ready()
    await kernel.returnFlow
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'oauth_unexpected' }))
  })
})
