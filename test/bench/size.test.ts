/** The size budget: part of `npm test` because sizes are deterministic. */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { budgets } from './budgets'
import { BENCH_HOSTS, ROOT, appSize, entries, entrySize, pluginFactories } from './sizes'

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`

describe('size budgets (gzip -9, minified, React excluded)', () => {
  it(`kernel entry stays within ${kib(budgets.kernel)}`, async () => {
    const s = await entrySize(entries().kernel)
    expect(s.gzip, `kernel is ${kib(s.gzip)}`).toBeLessThanOrEqual(budgets.kernel)
  })

  for (const [name, file] of Object.entries(entries()).filter(([n]) => n.startsWith('plugins/'))) {
    const id = name.slice('plugins/'.length)
    const budget = budgets.plugins[id] ?? budgets.defaultPlugin
    it(`${name} stays within ${kib(budget)}`, async () => {
      const s = await entrySize(file)
      expect(s.gzip, `${name} is ${kib(s.gzip)}`).toBeLessThanOrEqual(budget)
    })
  }

  const appEntry = (app: string) => ['main.tsx', 'main.ts'].map((f) => join(ROOT, 'examples', app, 'src', f)).find(existsSync)
  const minimal = appEntry('minimal')
  it(`examples/minimal initial load stays within ${kib(budgets.minimalInitial)}`, async () => {
    expect(minimal, 'examples/minimal/src/main.tsx exists').toBeTruthy()
    const s = await appSize(minimal!)
    expect(s.initial.gzip, `minimal initial load is ${kib(s.initial.gzip)}`).toBeLessThanOrEqual(budgets.minimalInitial)
  })

  it(`the README's e-mail-only app loads at most ${budgets.readmeEmailInitial} B initially (issue 27's small default entry)`, async () => {
    const s = await appSize(BENCH_HOSTS.readmeEmail.file)
    expect(s.initial.gzip, `the README's e-mail app's initial load is ${s.initial.gzip} B`).toBeLessThanOrEqual(budgets.readmeEmailInitial)
  })

  it(`examples/app initial load stays within ${kib(budgets.appInitial)}, without libphonenumber-js or viem`, async () => {
    const app = appEntry('app')
    expect(app, 'examples/app/src/main.tsx exists').toBeTruthy()
    const s = await appSize(app!)
    expect(s.initial.gzip, `app initial load is ${kib(s.initial.gzip)}`).toBeLessThanOrEqual(budgets.appInitial)
    expect(Object.keys(s.deps)).not.toContain('libphonenumber-js')
    expect(Object.keys(s.deps)).not.toContain('viem')
  })

  it('the every-plugin bench host turns on every plugin of plugins/ (the bases come with them)', () => {
    // every-plugin.tsx turns on the identity plugins through identity-plugins.ts, then the rest
    const src = ['every-plugin.tsx', 'identity-plugins.ts']
      .map((f) => readFileSync(join(dirname(BENCH_HOSTS.everyPlugin.file), f), 'utf8'))
      .join('\n')
    const imported = [...src.matchAll(/from 'portico\/plugins\/([a-z0-9-]+)'/g)].map((m) => m[1])
    expect(imported.sort()).toEqual(pluginFactories().sort())
  })

  it(`a host with every plugin on loads at most ${kib(budgets.everyPluginInitial)} initially (issue 11's target)`, async () => {
    const s = await appSize(BENCH_HOSTS.everyPlugin.file)
    expect(s.initial.gzip, `every plugin's initial load is ${kib(s.initial.gzip)}`).toBeLessThanOrEqual(budgets.everyPluginInitial)
  })

  it(`the identity plugins load at most ${kib(budgets.identityInitial)} initially`, async () => {
    const s = await appSize(BENCH_HOSTS.identity.file)
    expect(s.initial.gzip, `identity plugins' initial load is ${kib(s.initial.gzip)}`).toBeLessThanOrEqual(budgets.identityInitial)
  })
})
