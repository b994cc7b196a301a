#!/usr/bin/env node
/**
 * Mechanical rewrite (issue 11, bundle size): every `import … from 'portico/ui/screens'` whose
 * names are all exported by the host entry `portico/ui` (ui/index.ts) imports from 'portico/ui'
 * instead. Imports that name a screen component (ScreenLayout, Button, …) stay on
 * 'portico/ui/screens'. Idempotent; re-run after merging branches:
 * `node scripts/ui-host-imports.mjs [--check]`.
 * Scans plugins/ and examples/ (tests included: they run the same code), never node_modules.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const core = readFileSync(join(ROOT, 'ui/index.ts'), 'utf8')
const CORE = new Set()
for (const m of core.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
  for (const n of m[1].split(',')) {
    const name = n.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop().trim()
    if (name) CORE.add(name)
  }
}
for (const m of core.matchAll(/export\s+\*\s+as\s+(\w+)/g)) CORE.add(m[1])

const IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+'portico\/ui\/screens'/g
const check = process.argv.includes('--check')
const changed = []
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p)
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) {
      const src = readFileSync(p, 'utf8')
      const out = src.replace(IMPORT, (all, _type, names) => {
        const list = names.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0].trim()).filter(Boolean)
        return list.length && list.every((n) => CORE.has(n)) ? all.replace(/'portico\/ui\/screens'$/, "'portico/ui'") : all
      })
      if (out !== src) {
        changed.push(p.slice(ROOT.length + 1))
        if (!check) writeFileSync(p, out)
      }
    }
  }
}
for (const dir of ['plugins', 'examples']) walk(join(ROOT, dir))
console.log(`${check ? 'would rewrite' : 'rewrote'} ${changed.length} file(s)`)
for (const f of changed) console.log(`  ${f}`)
if (check && changed.length) process.exit(1)
