#!/usr/bin/env node
/**
 * The second step of `npm test`: the unit phase (vitest.unit.config.ts: unit, kit, contract and
 * server suites, and the browser specs of test/sequencer.ts UNIT_PHASE_SPECS) and the browser
 * phase (vitest.e2e.config.ts: Chromium against the real server) side by side. The browser phase spends much of its time waiting (pages, the wallet
 * frame, the chain, builds in other processes); the unit phase fills that time, so on a 2-core
 * machine the two together end well before one after the other. Each line is prefixed with its
 * phase; a summary with both results and durations ends the run, and the exit code fails if
 * either failed.
 *
 * PORTICO_TEST_PHASES=serial runs them one after the other (a heavily loaded machine, or to
 * read one phase's output whole). Shared work is safe across the two processes: the package is
 * built and packed once (test/consumer/pack.ts holds a lock), and every server, database and
 * browser a suite starts listens on a free port.
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs')

const PHASES = [
  { name: 'unit', args: ['run', '--config', 'vitest.unit.config.ts'] },
  { name: 'e2e', args: ['run', '--config', 'vitest.e2e.config.ts'] },
]

/** Run one phase, each output line prefixed; resolves with its exit code and duration. */
function runPhase({ name, args }) {
  const started = Date.now()
  const child = spawn(process.execPath, [vitest, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env })
  const prefix = (stream, out) => {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) out.write(`[${name}] ${line}\n`)
    })
    stream.on('end', () => rest && out.write(`[${name}] ${rest}\n`))
  }
  prefix(child.stdout, process.stdout)
  prefix(child.stderr, process.stderr)
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: Math.round((Date.now() - started) / 1000) }))
    child.on('error', (err) => resolve({ name, code: 1, seconds: 0, error: err.message }))
  })
}

const serial = process.env.PORTICO_TEST_PHASES === 'serial'
const started = Date.now()
const results = []
if (serial) {
  for (const phase of PHASES) results.push(await runPhase(phase))
} else {
  results.push(...(await Promise.all(PHASES.map(runPhase))))
}
const total = Math.round((Date.now() - started) / 1000)
console.log(`\nnpm test: ${serial ? 'one phase after the other' : 'both phases side by side'}, ${total} s in all`)
for (const r of results) console.log(`  ${r.name}: ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code}${r.error ? `: ${r.error}` : ''})`} in ${r.seconds} s`)
process.exit(results.some((r) => r.code !== 0) ? 1 : 0)
