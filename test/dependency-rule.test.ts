/**
 * The house is one-way. Every source file of kernel/, ui/, kits/ and plugins/ (TypeScript's
 * own import scanner: static, dynamic, re-exports) may import only down the layers:
 *
 *   kernel  -> nothing of ours
 *   ui      -> kernel
 *   kits    -> ui | kernel      (and another kit's public entry)
 *   plugins -> kits | ui | kernel (another plugin's public entry only where listed below)
 *
 * A kit or a plugin reaches another unit through its public entry (`portico/kits/<id>`,
 * `portico/plugins/<id>`), never a relative path out of its own folder. Tests may add the test
 * kit (`portico/testing`, test/kit). Which public entries exist is test/public-surface's rule.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, importsOf, sourceFiles } from './source-files'


type Layer = 'kernel' | 'ui' | 'kits' | 'plugins' | 'testing' | 'other'
const ALLOWED: Record<'kernel' | 'ui' | 'kits' | 'plugins', Layer[]> = {
  kernel: ['kernel'],
  ui: ['ui', 'kernel'],
  kits: ['kits', 'ui', 'kernel'],
  plugins: ['plugins', 'kits', 'ui', 'kernel'],
}

/**
 * Plugin-to-plugin imports that are part of a plugin's job (a plugin built on another's
 * public API). May only shrink: an entry that no longer occurs fails the test.
 */
const PLUGIN_TO_PLUGIN: Record<string, string[]> = {
  'plugins/approvals': ['plugins/embedded-wallet'],
  'plugins/coinbase-wallet': ['plugins/siwe'],
  'plugins/delegated-actions': ['plugins/embedded-wallet'],
  'plugins/farcaster-signer': ['plugins/embedded-wallet'],
  'plugins/mfa-passkey': ['plugins/passkey'],
  'plugins/phantom': ['plugins/siws'],
  // EIP-7702's 'Upgrade your wallet' embeds the wallet service's page through the embedded wallet's page kit (as delegated-actions' consent does).
  'plugins/smart-wallet': ['plugins/embedded-wallet'],
  'plugins/wallet-export': ['plugins/embedded-wallet'],
}

/** The layer and unit (`kits/oauth`, `plugins/email`, `ui`) a specifier imported from `file` lands in. */
export function target(file: string, specifier: string): { layer: Layer; unit: string } | null {
  if (specifier === 'portico' || specifier === 'portico/internal') return { layer: 'kernel', unit: 'kernel' }
  if (specifier === 'portico/testing') return { layer: 'testing', unit: 'testing' }
  if (specifier === 'portico/ui' || specifier.startsWith('portico/ui/')) return { layer: 'ui', unit: 'ui' }
  const entry = /^portico\/(kits|plugins)\/([^/]+)/.exec(specifier)
  if (entry) return { layer: entry[1] as Layer, unit: `${entry[1]}/${entry[2]}` }
  if (specifier.startsWith('portico/')) return { layer: 'other', unit: specifier }
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return null // another package
  const path = relative(ROOT, resolve(ROOT, dirname(file), specifier)).split(sep).join('/')
  const [top, id] = path.split('/')
  if (top === 'kernel' || top === 'ui') return { layer: top, unit: top }
  if (top === 'kits' || top === 'plugins') return { layer: top, unit: `${top}/${id}` }
  if (path.startsWith('test/kit') || path.startsWith('test/contract')) return { layer: 'testing', unit: 'testing' }
  return { layer: 'other', unit: path }
}

/** A provider file over a kit (kits/<kit>/providers/<id>.tsx) is a plugin: public as portico/plugins/<id>. */
const PROVIDER = /^kits\/[^/]+\/providers\/([a-z0-9-]+)\.tsx?$/
const unitOf = (file: string) => {
  const provider = PROVIDER.exec(file)
  if (provider) return `plugins/${provider[1]}`
  const [top, id] = file.split('/')
  return top === 'kits' || top === 'plugins' ? `${top}/${id}` : top
}
const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file) || file.includes('/test-support/')

/** Why `specifier` may not be imported from `file`; null when it may. */
export function wrongWay(file: string, specifier: string): string | null {
  const from = (PROVIDER.test(file) ? 'plugins' : file.split('/')[0]) as keyof typeof ALLOWED
  const to = target(file, specifier)
  if (!to) return null
  const own = unitOf(file)
  if (to.layer === 'testing') return isTest(file) ? null : `'${specifier}': only tests use the test kit`
  // A kit's tests may run the plugins built on it (the OAuth kit's providers, through their entries).
  const allowed = from === 'kits' && isTest(file) ? [...ALLOWED.kits, 'plugins'] : ALLOWED[from]
  if (!allowed.includes(to.layer)) return `'${specifier}': ${from} may not import ${to.layer}`
  // A test may import its own unit's public entry (it tests what users import).
  if (to.unit === own) return specifier.startsWith('portico') && !isTest(file) ? `'${specifier}': import your own files relatively` : null
  if ((from === 'kits' || from === 'plugins') && !specifier.startsWith('portico'))
    return `'${specifier}' leaves ${own}: import ${to.unit} through its public entry`
  if (from === 'plugins' && to.layer === 'plugins' && !isTest(file) && !(PLUGIN_TO_PLUGIN[own] ?? []).includes(to.unit))
    return `'${specifier}': ${own} builds on another plugin (move the shared part to a kit, or list it in PLUGIN_TO_PLUGIN)`
  return null
}

const files = ['kernel', 'ui', 'kits', 'plugins'].flatMap((d) => sourceFiles(d))
const importsIn = (file: string) => importsOf(readFileSync(join(ROOT, file), 'utf8'))

describe('the dependency rule checker', () => {
  it('allows imports down the layers and through public entries', () => {
    const ok: [string, string][] = [
      ['kernel/portico.ts', './session'],
      ['ui/modal/modal.tsx', '../../kernel/errors'],
      ['ui/index.ts', 'portico'],
      ['kits/oauth/flow.ts', 'portico/ui/screens'],
      ['kits/oauth/flow.ts', 'portico/kits/browser'],
      ['kits/oauth/flow.ts', './pkce'],
      ['plugins/email/index.ts', 'portico/kits/code'],
      ['kits/oauth/providers/google.tsx', 'portico/kits/oauth'],
      ['kits/oauth/oauth.test.tsx', 'portico/plugins/google'],
      ['plugins/email/email.test.ts', 'portico/testing'],
      ['plugins/email/index.ts', 'react'],
      ['plugins/moonpay/status.ts', 'portico/kits/funding'],
      ['plugins/mfa-totp/index.ts', 'portico/kits/mfa'],
    ]
    for (const [file, s] of ok) expect(wrongWay(file, s), `${file}: ${s}`).toBeNull()
  })

  it('refuses imports up the layers, out of a folder, or into another plugin', () => {
    const bad: [string, string][] = [
      ['kernel/portico.ts', 'portico/ui'],
      ['kernel/portico.ts', '../plugins/email/index'],
      ['ui/components/code-entry.tsx', 'portico/plugins/code'],
      ['ui/components/code-entry.tsx', 'portico/kits/code'],
      ['kits/code/flow.ts', 'portico/plugins/email'],
      ['kits/oauth/flow.ts', '../browser/pkce'],
      ['plugins/email/index.ts', '../../kits/code/flow'],
      ['plugins/email/index.ts', 'portico/plugins/sms'],
      ['plugins/email/index.ts', 'portico/testing'],
      ['plugins/email/index.ts', 'portico/plugins/email'],
      ['kits/oauth/flow.ts', 'portico/plugins/google'],
      ['kits/oauth/providers/google.tsx', '../flow'],
      ['plugins/moonpay/status.ts', 'portico/plugins/funding'],
      ['plugins/mfa-totp/index.ts', 'portico/plugins/mfa'],
      ['kits/mfa/code.ts', 'portico/plugins/mfa'],
    ]
    for (const [file, s] of bad) expect(wrongWay(file, s), `${file}: ${s}`).not.toBeNull()
  })
})

describe('kernel, ui, kits and plugins import only down the layers', () => {
  it('finds the files to check', () => {
    for (const d of ['kernel/', 'ui/', 'kits/', 'plugins/']) expect(files.some((f) => f.startsWith(d)), d).toBe(true)
  })

  it.each(files)('%s', (file) => {
    expect(importsIn(file).map((s) => wrongWay(file, s)).filter(Boolean), file).toEqual([])
  })

  it('the list of plugin-to-plugin imports only shrinks (remove entries that no longer occur)', () => {
    const stale: string[] = []
    for (const [unit, targets] of Object.entries(PLUGIN_TO_PLUGIN)) {
      const used = new Set(
        files
          .filter((f) => unitOf(f) === unit && !isTest(f))
          .flatMap((f) => importsIn(f).map((s) => target(f, s)?.unit)),
      )
      for (const t of targets) if (!used.has(t)) stale.push(`${unit} -> ${t}`)
    }
    expect(stale).toEqual([])
  })
})
