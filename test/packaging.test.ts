/**
 * Packaging (issue 9): what an app's bundler and Next.js see of the published package.
 * Builds the JavaScript half of rollup.config.mjs in memory (no .d.ts, nothing written) and
 * checks the output against package.json:
 *  - the React entries (ui, ui/phone-input, every plugin) start with 'use client'; the kernel
 *    and testing do not;
 *  - `sideEffects` keeps the stylesheet (webpack would drop `import 'portico/ui/styles.css'`
 *    under `false`) and leaves the JavaScript tree-shakeable;
 *  - every package the output imports is declared (dependency or peer); viem,
 *    libphonenumber-js and @simplewebauthn/browser are optional peers, reached only from the entries that need them.
 */
import { builtinModules } from 'node:module'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { rollup, type OutputChunk } from 'rollup'
import { beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: an .mjs config without types
import configs, { USE_CLIENT, isClientEntry } from '../rollup.config.mjs'

const ROOT = join(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))

/** Optional peers and the entries allowed to reach them (statically or through lazy chunks). */
const OPTIONAL_PEERS: Record<string, string[]> = {
  viem: ['plugins/siwe/index', 'plugins/embedded-wallet/index', 'plugins/walletconnect/index', 'plugins/approvals/index', 'plugins/smart-wallet/index'],
  // The approval screens' Solana engine; funding's Solana transactions (the funding kit's lazy chunks, also reached by the bridge).
  '@solana/web3.js': ['plugins/approvals/index', 'plugins/funding/index', 'plugins/bridge/index', 'kits/funding/index'],
  // The embedded wallet's Solana wallet-standard wallet (lazy chunk).
  '@wallet-standard/wallet': ['plugins/embedded-wallet/index'],
  '@scure/base': ['plugins/embedded-wallet/index', 'plugins/phantom/index', 'plugins/funding/index', 'plugins/bridge/index', 'kits/funding/index'],
  '@walletconnect/sign-client': ['plugins/walletconnect/index'],
  'libphonenumber-js': ['plugins/sms/index', 'ui/phone-input'],
  '@simplewebauthn/browser': ['plugins/passkey/index', 'plugins/mfa/index', 'plugins/mfa-passkey/index'],
  otpauth: ['plugins/mfa-totp/index'],
  '@coinbase/wallet-sdk': ['plugins/coinbase-wallet/index'],
  '@wagmi/core': ['wagmi/index'],
  '@noble/ciphers': ['plugins/phantom/index'],
  // upgradeTo7702's lazy chunk (EIP-7702 accounts); the smart-wallet plugin's accounts.
  permissionless: ['plugins/embedded-wallet/index', 'plugins/smart-wallet/index'],
}
/**
 * Reaches that exist today in files owned by the plugin-contract rewrite. May only shrink:
 * an entry that no longer occurs fails, so delete it when fixed. `portico/ui` re-exports
 * PhoneInput because plugins/sms imports it from there; once sms imports
 * `portico/ui/phone-input`, drop the re-export and this line: an e-mail-only app then needs
 * React and Portico only.
 */
const KNOWN: Record<string, string[]> = {}

let chunks: Map<string, OutputChunk>
let entries: Map<string, OutputChunk>

beforeAll(async () => {
  const js = configs[0]
  const bundle = await rollup({ ...js, plugins: js.plugins.filter((p: { name: string }) => p.name !== 'copy-css'), onwarn: () => {} })
  const { output } = await bundle.generate(js.output)
  await bundle.close()
  chunks = new Map(output.filter((o): o is OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]))
  entries = new Map([...chunks.values()].filter((c) => c.isEntry).map((c) => [c.name, c]))
}, 120_000)

const packageName = (id: string) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/')
const isBuiltin = (id: string) => id.startsWith('node:') || builtinModules.includes(id)

/** Bare packages an entry reaches through its static and dynamic imports, chunk by chunk. */
function reach(entry: OutputChunk): Set<string> {
  const out = new Set<string>()
  const seen = new Set<string>()
  const visit = (c: OutputChunk) => {
    if (seen.has(c.fileName)) return
    seen.add(c.fileName)
    for (const id of [...c.imports, ...c.dynamicImports]) {
      const local = chunks.get(id)
      if (local) visit(local)
      else if (!id.startsWith('portico') && !isBuiltin(id)) out.add(packageName(id))
    }
  }
  visit(entry)
  return out
}

function globToRegExp(glob: string) {
  const re = glob
    .replace(/^\.\//, '')
    .split('**/')
    .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
    .join('(?:.*/)?')
  return new RegExp(`^(?:\\./)?${re}$`)
}
const hasSideEffects = (file: string) =>
  pkg.sideEffects === true || (Array.isArray(pkg.sideEffects) && pkg.sideEffects.some((g: string) => globToRegExp(g).test(file)))

describe('packaging', () => {
  it('builds the entries the exports map names', () => {
    for (const name of ['kernel/index', 'ui/index', 'ui/screens', 'ui/core', 'ui/phone-input', 'testing/index', 'plugins/email/index', 'plugins/sms/index', 'plugins/siwe/index']) {
      expect(entries.has(name), name).toBe(true)
    }
    for (const [subpath, target] of Object.entries(pkg.exports as Record<string, string | { import: string }>)) {
      const file = typeof target === 'string' ? target : target.import
      if (!file.endsWith('.js') || file.includes('*')) continue
      expect(entries.has(file.replace(/^\.\/dist\//, '').replace(/\.js$/, '')), `exports['${subpath}']`).toBe(true)
    }
  })

  it("'use client' opens ui and every plugin entry, not the kernel or testing", () => {
    const client = [...entries.keys()].filter(isClientEntry)
    expect(client.filter((n) => n.startsWith('plugins/')).length).toBeGreaterThanOrEqual(5)
    for (const name of client) expect(entries.get(name)!.code.startsWith(`${USE_CLIENT}\n`), name).toBe(true)
    for (const name of ['kernel/index', 'testing/index']) {
      expect(isClientEntry(name)).toBe(false)
      expect(entries.get(name)!.code).not.toMatch(/^\s*['"]use client['"]/)
    }
  })

  it('sideEffects keeps the stylesheet and nothing else', () => {
    expect(pkg.sideEffects).not.toBe(true)
    expect(hasSideEffects('dist/ui/styles.css')).toBe(true)
    expect(hasSideEffects('./dist/ui/styles.css')).toBe(true)
    for (const c of chunks.values()) expect(hasSideEffects(`dist/${c.fileName}`), c.fileName).toBe(false)
  })

  it('viem and libphonenumber-js are optional peers (and dev dependencies), not dependencies', () => {
    for (const name of Object.keys(OPTIONAL_PEERS)) {
      expect(pkg.dependencies?.[name], `${name} in dependencies`).toBeUndefined()
      expect(pkg.peerDependencies?.[name], `${name} in peerDependencies`).toBeTruthy()
      expect(pkg.peerDependenciesMeta?.[name]?.optional, `${name} optional`).toBe(true)
      expect(pkg.devDependencies?.[name], `${name} in devDependencies`).toBeTruthy()
    }
  })

  it('every package the output imports is a dependency or a peer; portico/testing declares its peers', () => {
    const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})])
    for (const [name, entry] of entries) {
      const missing = [...reach(entry)].filter((p) => !declared.has(p))
      expect(missing, `${name} imports undeclared packages`).toEqual([])
    }
    const testing = reach(entries.get('testing/index')!)
    for (const peer of ['@testing-library/react', 'vitest', 'react']) {
      expect(testing.has(peer), `testing reaches ${peer}`).toBe(true)
      expect(pkg.peerDependenciesMeta?.[peer]?.optional, `${peer} is an optional peer`).toBe(true)
    }
  })

  it('optional peers are reached only from the entries that need them', () => {
    const unexpected: Record<string, string[]> = {}
    for (const [name, entry] of entries) {
      if (name === 'testing/index') continue // a test-only entry
      const extra = [...reach(entry)].filter((p) => OPTIONAL_PEERS[p] && !OPTIONAL_PEERS[p].includes(name))
      if (extra.length) unexpected[name] = extra
    }
    expect(unexpected).toEqual(KNOWN)
    // An e-mail-only app without the ui: kernel and the email plugin reach no optional peer.
    for (const name of ['kernel/index', 'plugins/email/index', 'plugins/guest/index']) {
      expect([...reach(entries.get(name)!)].filter((p) => OPTIONAL_PEERS[p]), name).toEqual([])
    }
  })
})
