/**
 * The contract every plugin runs, ours or a third party's, with one call:
 *
 * ```ts
 * import { pluginContract } from 'portico/testing'
 * pluginContract(() => email())
 * ```
 */
import { describe, expect, it } from 'vitest'
import { PorticoError, type PorticoPlugin } from '../../kernel/index'
import { PLUGIN_KINDS } from '../../kernel/internal'
import { createTestKernel } from '../kit/index'

export interface ContractOptions {
  /** Expected id (defaults to the plugin's own). */
  id?: string
  /** Login-method ids the plugin should add to the landing when enabled. */
  loginMethods?: string[]
  /** Enabled login methods for the test app (defaults to `loginMethods` or the plugin id). */
  enabled?: string[]
}

export function pluginContract(factory: () => PorticoPlugin, options: ContractOptions = {}) {
  const sample = factory()
  describe(`plugin contract: ${sample?.id ?? '(no id)'}`, () => {
    it('has a kebab-case id, a known kind and a setup function', () => {
      const p = factory()
      expect(typeof p.id).toBe('string')
      expect(p.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      if (options.id) expect(p.id).toBe(options.id)
      expect(PLUGIN_KINDS).toContain(p.kind)
      expect(typeof p.setup).toBe('function')
    })

    it('sets up in a kernel, taps only under its own id, and tears down what it registered', async () => {
      const enabled = options.enabled ?? options.loginMethods ?? [sample.id]
      const { kernel } = await createTestKernel({ plugins: [factory()], app: { login_methods: enabled } })
      for (const [name, hook] of Object.entries(kernel.hooks)) {
        for (const tap of (hook as unknown as { taps: { name: string }[] }).taps) {
          expect(tap.name, `hook ${name}`).toBe(sample.id)
        }
      }
      const registered = kernel.screens.ids
      kernel.destroy()
      for (const id of registered) expect(kernel.screens.has(id), `screen ${id} after teardown`).toBe(false)
    })

    it('adds well-formed landing entries whose screens exist', async () => {
      const enabled = options.enabled ?? options.loginMethods ?? [sample.id]
      const { kernel } = await createTestKernel({ plugins: [factory()], app: { login_methods: enabled } })
      const entries = kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })
      for (const e of entries) {
        expect(typeof e.id).toBe('string')
        expect(typeof e.label).toBe('string')
        expect(['web2', 'web3']).toContain(e.group)
        expect(e.screen || e.start || e.input, `entry ${e.id} does something`).toBeTruthy()
        // An inline input is not enough: the row form (hideDirectWeb2Inputs, overflow, link) opens a screen.
        if (e.input) expect(e.screen, `entry ${e.id} has an inline input, so it also needs a screen`).toBeTruthy()
        if (e.screen) expect(kernel.screens.has(e.screen), `screen ${e.screen}`).toBe(true)
      }
      if (options.loginMethods) expect(entries.map((e) => e.id)).toEqual(expect.arrayContaining(options.loginMethods))
      kernel.destroy()
    })

    it('leaves errors it does not know to the kernel', async () => {
      const { kernel } = await createTestKernel({ plugins: [factory()], app: { login_methods: options.enabled ?? [sample.id] } })
      const foreign = new PorticoError('contract_test_unknown_code', 'not yours')
      expect(kernel.hooks.errorView.call(foreign, {})).toBeUndefined()
      kernel.destroy()
    })
  })
}
