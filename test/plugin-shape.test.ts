/**
 * One folder shape and naming rule for every plugin (contract v2):
 * `index.ts` (the one public entry), `calls.ts` (API calls named verbNoun), `errors.ts`
 * (errors only), `strings.ts` (exactly one `<ID>_TEXTS`), state and React hooks in files named
 * for what they hold (no `hooks.ts`: 'hooks' means the kernel's tapable hooks), `screens/`,
 * `README.md` and tests beside the code; screen ids prefixed with the plugin id.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PorticoPlugin } from '../kernel/index'
import { createTestKernel } from './kit/index'

const PLUGINS = join(import.meta.dirname, '..', 'plugins')
const folders = readdirSync(PLUGINS).filter((n) => statSync(join(PLUGINS, n)).isDirectory())
const camel = (id: string) => id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
const upper = (id: string) => id.replace(/-/g, '_').toUpperCase()

describe.each(folders)('plugins/%s', (id) => {
  const dir = join(PLUGINS, id)
  const files = readdirSync(dir)

  it('has index.ts, README.md and a test beside the code', () => {
    expect(files).toContain('index.ts')
    expect(files).toContain('README.md')
    expect(files.some((f) => f.startsWith(`${id}.`) && /\.test\.tsx?$/.test(f)), `a ${id}.test.ts(x)`).toBe(true)
  })

  it("has no file named hooks.ts (state and React hooks live in files named for what they hold)", () => {
    expect(files).not.toContain('hooks.ts')
    expect(files).not.toContain('hooks.tsx')
  })

  it('keeps its texts in strings.ts as exactly one <ID>_TEXTS', async () => {
    if (!files.includes('strings.ts')) return
    const mod = await import(join(dir, 'strings.ts'))
    expect(Object.keys(mod)).toEqual([`${upper(id)}_TEXTS`])
  })

  it('names its calls verbNoun in calls.ts', async () => {
    if (!files.includes('calls.ts')) return
    const mod = await import(join(dir, 'calls.ts'))
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value === 'function') expect(name, `calls.ts: ${name}`).toMatch(/^[a-z]+[A-Z][A-Za-z0-9]*$/)
    }
  })

  it('keeps errors.ts to errors (no texts)', async () => {
    if (!files.includes('errors.ts')) return
    const mod = await import(join(dir, 'errors.ts'))
    for (const name of Object.keys(mod)) expect(name, `errors.ts: ${name}`).not.toMatch(/_TEXTS$/)
  })

  it('prefixes every screen id with the plugin id', async () => {
    const mod = await import(join(dir, 'index.ts'))
    const factory = mod[camel(id)] as (() => PorticoPlugin) | undefined
    if (typeof factory !== 'function') return // a shared base (code, oauth ...), not a plugin
    const plugin = factory()
    expect(plugin.id).toBe(id)
    const { kernel } = await createTestKernel({ plugins: [plugin] })
    const own = kernel.screens.ids.filter((s) => !BUILTIN.has(s))
    // A plugin's own screens carry its id; a kit it builds on (kits/wallet) registers its own.
    const prefixes = [id, ...KITS, ...BASES]
    for (const screen of own) expect(prefixes.some((p) => screen === p || screen.startsWith(`${p}-`)), `screen '${screen}'`).toBe(true)
    kernel.destroy()
  })
})

/** Screens the bare test kernel has (none: the UI registers the generic ones). */
const BUILTIN = new Set<string>()

/** Shared bases still under plugins/: folders whose index.ts exports no factory named after the folder. */
const BASES = await Promise.all(
  folders.map(async (id) => ((await import(join(PLUGINS, id, 'index.ts')))[camel(id)] ? null : id)),
).then((ids) => ids.filter((id): id is string => id !== null))

/** The kits (kits/<id>): shared libraries plugins build on, not plugins. */
const KITS = readdirSync(join(PLUGINS, '..', 'kits')).filter((n) => statSync(join(PLUGINS, '..', 'kits', n)).isDirectory())

it('the shape rules see every plugin folder', () => {
  expect(folders.length).toBeGreaterThan(5)
  expect(existsSync(join(PLUGINS, 'email', 'index.ts'))).toBe(true)
})
