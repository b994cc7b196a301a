/**
 * A strict Content-Security-Policy (no 'unsafe-eval') refuses `new Function`, which tapable
 * uses to compile hooks. Node's --disallow-code-generation-from-strings is the same rule, so
 * we build the kernel with the real rollup pipeline and run it under that flag: every hook
 * must tap and call. The same child checks that importing the kernel touches no `window`
 * or `document` (server rendering).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { rollup } from 'rollup'
import esbuild from 'rollup-plugin-esbuild'
import { beforeAll, describe, expect, it } from 'vitest'

const dir = join(process.cwd(), '.tmp', 'csp')
const kernelFile = join(dir, 'kernel.mjs')

beforeAll(async () => {
  mkdirSync(dir, { recursive: true })
  const bundle = await rollup({
    input: 'kernel/index.ts',
    external: (id) => id === 'mitt' || id.startsWith('tapable'),
    plugins: [esbuild({ target: 'es2022' })],
  })
  // The kernel's on-use parts (session calls, error views, return path …) are chunks of their own,
  // loaded under the same flag when the probe uses them.
  await bundle.write({ dir, format: 'es', entryFileNames: 'kernel.mjs', chunkFileNames: 'kernel-[name]-[hash].mjs' })
  await bundle.close()
}, 60_000)

const SYNC = ['configure', 'loginMethods', 'returnPath', 'errorView', 'walletConnectors', 'fundingMethods']
const ASYNC = ['request', 'authenticated', 'sensitiveAction', 'logout']

const probe = `
const trap = (name) => ({ configurable: true, get() { throw new Error('touched ' + name + ' at import') } })
Object.defineProperty(globalThis, 'window', trap('window'))
Object.defineProperty(globalThis, 'document', trap('document'))
const k = await import(${JSON.stringify(kernelFile)})
delete globalThis.window
delete globalThis.document
const calls = []
const SYNC = ${JSON.stringify(SYNC)}, ASYNC = ${JSON.stringify(ASYNC)}
const plugin = k.definePlugin({ id: 'probe', kind: 'feature', setup(ctx) {
  for (const name of SYNC) ctx.hooks[name].tap('probe', (a) => { calls.push(name); return name === 'returnPath' || name === 'errorView' ? { tapped: name } : a })
  for (const name of ASYNC) ctx.hooks[name].tapPromise('probe', async (a) => { calls.push(name); return a })
  ctx.hooks.logout.tapAsync('probe', (cb) => { calls.push('logout:async'); cb() })
}})
const kernel = k.createPortico({ appId: 'portico-test-app-00000001', loginMethods: ['email'], skipServerConfig: true,
  plugins: [plugin], fetch: async () => new Response('{}') })
await kernel.ready()
const results = {}
for (const name of SYNC) results[name] = kernel.hooks[name].call(name === 'configure' ? kernel.config : [], {})
for (const name of ASYNC) results[name] = await kernel.hooks[name].promise({ ok: name })
await new Promise((resolve, reject) => kernel.hooks.sensitiveAction.callAsync({}, (e) => e ? reject(e) : resolve()))
await kernel.api.get('/ping')
console.log(JSON.stringify({ hooks: Object.keys(kernel.hooks).sort(), calls, results }))
`

describe('kernel under --disallow-code-generation-from-strings', () => {
  it('the flag really refuses tapable’s own compiled hooks (the control)', () => {
    const r = spawnSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--input-type=module', '-e', "import { SyncHook } from 'tapable'; new SyncHook([]).call()"],
      { cwd: process.cwd(), encoding: 'utf8' },
    )
    expect(r.status).not.toBe(0)
    expect(r.stderr).toMatch(/Code generation from strings disallowed/)
  })

  it('imports without touching window or document, creates a kernel with a plugin, taps and calls every hook', () => {
    const file = join(dir, 'probe.mjs')
    writeFileSync(file, probe)
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', file], {
      cwd: process.cwd(),
      encoding: 'utf8',
    })
    const { hooks, calls, results } = JSON.parse(out.trim().split('\n').pop()!)
    expect(hooks).toEqual([...SYNC, ...ASYNC].sort())
    for (const name of [...SYNC, ...ASYNC]) expect(calls).toContain(name)
    expect(calls).toContain('logout:async')
    expect(results.returnPath).toEqual({ tapped: 'returnPath' })
    expect(results.errorView).toEqual({ tapped: 'errorView' })
    expect(results.loginMethods).toEqual([])
    expect(results.request).toEqual({ ok: 'request' })
  })
})
