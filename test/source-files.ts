/**
 * What the import-rule tests (public-surface, dependency-rule) read: the repository's own source
 * files under a folder, and the module specifiers a source imports (static, dynamic, re-exports).
 */
import { readdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The module specifiers `source` imports, as TypeScript's pre-processor finds them. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName)
}

/** Source files below `dir` (relative to the repository), without node_modules, dist, dot folders and .d.ts. */
export function sourceFiles(dir: string, out: string[] = []): string[] {
  let names: string[]
  try {
    names = readdirSync(join(ROOT, dir))
  } catch {
    return out
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
    const rel = `${dir}/${name}`
    if (statSync(join(ROOT, rel)).isDirectory()) sourceFiles(rel, out)
    else if (/\.(m?[jt]sx?|cts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel)
  }
  return out
}
