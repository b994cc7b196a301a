#!/usr/bin/env node
/**
 * `npm run build`: the package as published.
 * 1. `tsc -p tsconfig.dts.json` writes one declaration file per source file to .tmp/dts
 *    (one TypeScript program for every entry; about 30 s and under 1 GB on two cores);
 * 2. rollup (rollup.config.mjs) bundles the JavaScript per entry with esbuild, and bundles the
 *    declarations of step 1 per entry with rollup-plugin-dts.
 * Runs with Node's default heap.
 */
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url))

function step(label, cmd, args) {
  const started = performance.now()
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`build: ${label} failed (exit ${r.status ?? r.signal})`)
    process.exit(r.status ?? 1)
  }
  console.log(`build: ${label} ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
rmSync(new URL('../.tmp/dts', import.meta.url), { recursive: true, force: true })
step('declarations (tsc)', bin('tsc'), ['-p', 'tsconfig.dts.json'])
step('bundles (rollup)', bin('rollup'), ['-c', 'rollup.config.mjs'])
