/**
 * Contract v2: the kernel and `ui` know no login method. Plugins declare their methods
 * (`ctx.methods.declare`); nothing in kernel/ or ui/ may branch on a method's name or
 * account type. Wire *types* of the spec's user record may name them (type positions only).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')

/** Login-method ids, account types and OAuth providers of the spec (part 1 sections 2 and 3). */
const NAMES = [
  'email', 'sms', 'phone', 'wallet', 'siwe', 'siws', 'guest', 'custom_auth', 'custom-auth', 'passkey', 'telegram',
  'farcaster', 'cross_app', 'smart_wallet', 'embedded_wallet', 'google', 'apple', 'discord', 'github', 'instagram',
  'spotify', 'tiktok', 'twitter', 'linkedin', 'totp',
]
const OAUTH = /^(google|apple|discord|github|instagram|spotify|tiktok|twitter|linkedin)_oauth$/

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : []
  })
}

/** Lines that only declare types: `type X = ...`, `prop: 'a' | 'b'` in an interface, `type: \`${...}\``. */
const TYPE_ONLY = [/^\s*(export\s+)?type\s+\w+[^=]*=/, /^\s*(readonly\s+)?\w+\??:\s*('[^']*'|`[^`]*`)(\s*\|\s*('[^']*'|`[^`]*`|null))*\s*$/, /^\s*\|\s*'[^']*'\s*$/]

/** Not a method: the plugin kinds ('wallet' is a kind of plugin). */
const ALLOWED = [/PLUGIN_KINDS = \[/]

function offences(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
  const out: string[] = []
  text.split('\n').forEach((line, i) => {
    if (TYPE_ONLY.some((re) => re.test(line)) || ALLOWED.some((re) => re.test(line))) return
    for (const m of line.matchAll(/'([^'\\]*)'|"([^"\\]*)"/g)) {
      const s = m[1] ?? m[2]
      if (NAMES.includes(s) || OAUTH.test(s)) out.push(`${file.slice(ROOT.length + 1)}:${i + 1}: ${line.trim()}`)
    }
  })
  return out
}

describe('kernel/ and ui/ name no login method', () => {
  it('has no string literal naming a method or account type outside type declarations', () => {
    const hits = [...sources(join(ROOT, 'kernel')), ...sources(join(ROOT, 'ui'))].flatMap(offences)
    expect(hits).toEqual([])
  })

  it('catches a method name when one is added (the check can fail)', () => {
    const probe = join(ROOT, 'test', 'fixtures-method-name.probe')
    expect(offences.call(null, probe).length).toBeGreaterThan(0)
  })
})

describe("the user record's fields come from the plugins (declaration merging)", () => {
  const userTs = () => readFileSync(join(ROOT, 'kernel', 'user.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
  const fieldsOf = (text: string, name: string) => {
    const m = new RegExp(`interface ${name}(?: extends \\w+)? \\{([^}]*)\\}`).exec(text)
    if (!m) throw new Error(`interface ${name} not found`)
    return m[1].split('\n').map((l) => /^\s*(\w+)\??:/.exec(l)?.[1]).filter((f): f is string => !!f)
  }
  const USER_FIELDS = ['email', 'phone', 'wallet', 'smartWallet', 'google', 'twitter', 'discord', 'github', 'spotify', 'instagram', 'tiktok', 'linkedin', 'apple', 'farcaster', 'telegram', 'customAuth']

  it('kernel/user.ts declares UserFields empty and User names no method field nor OAuth provider', () => {
    const text = userTs()
    expect(fieldsOf(text, 'UserFields')).toEqual([])
    expect(fieldsOf(text, 'User').filter((f) => USER_FIELDS.includes(f))).toEqual([])
    expect(text.match(/\b(google|apple|discord|github|instagram|spotify|tiktok|twitter|linkedin)\b/g)).toBeNull()
  })

  it('each method field is declared by a plugin or kit entry that fills it', () => {
    const entries = [...sources(join(ROOT, 'plugins')), ...sources(join(ROOT, 'kits'))].filter((f) => !f.includes('/screens/'))
    const declared = new Set(
      entries.flatMap((f) => {
        const m = /interface UserFields \{([^}]*)\}/.exec(readFileSync(f, 'utf8'))
        return m ? (m[1].match(/^\s*(\w+)\?:/gm) ?? []).map((l) => l.trim().replace('?:', '')) : []
      }),
    )
    expect([...declared].sort()).toEqual([...USER_FIELDS].sort())
  })
})
