/**
 * `npm run bench` runs under tsx, not vitest: its code is transpiled differently (esbuild
 * keepNames), so a function serialised to the page can break there and nowhere else
 * (`ReferenceError: __name is not defined`). Run the browser halves of the bench for real (the
 * modal and the embedded wallet; no sizes: test/bench/size.test.ts holds those), one run per
 * measurement (every path of the bench runs once: first and warm opens, cold start, creation)
 * and two signatures and proofs, in the run's shared Chromium, and check it printed and wrote
 * its figures. No figure is held to its target here: that is the bench's job.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { ROOT } from './harness'

describe('npm run bench (browser halves, one run each, under tsx)', () => {
  it('measures modal opens in the page for minimal and app and counts login requests', { timeout: 240_000 }, async () => {
    mkdirSync(join(ROOT, '.tmp'), { recursive: true })
    const out = join(ROOT, '.tmp', `bench-smoke-${process.pid}.json`)
    rmSync(out, { force: true })
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'test/bench/run.ts', '--browser-only'],
        { cwd: ROOT, env: { ...process.env, BENCH_RUNS: '1', BENCH_SIGN_RUNS: '2', BENCH_PROOF_RUNS: '2', BENCH_OUT: out, PORTICO_E2E_BROWSER_WS: inject('e2eBrowserWsEndpoint') ?? '' }, timeout: 220_000, maxBuffer: 10 * 1024 * 1024 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      )
    })
    expect(code, `bench exited with ${code}\n${stdout}\n${stderr}`).toBe(0)
    expect(stdout).toMatch(/examples\/minimal\n\s+first open: median \d+\.\d, p95 \d+\.\d/)
    expect(stdout).toMatch(/examples\/app\n\s+first open: median \d+\.\d, p95 \d+\.\d/)
    const results = JSON.parse(readFileSync(out, 'utf8'))
    rmSync(out, { force: true })
    for (const example of ['minimal', 'app']) {
      const r = results.browser[example]
      expect(r.modalOpenMs.first.dom.runs).toBe(1)
      expect(r.modalOpenMs.warm.dom.runs).toBe(1)
      expect(r.modalOpenMs.first.dom.median).toBeGreaterThan(0)
      expect(r.loginRequests.requests).toEqual(['GET /apps/portico-demo-app-00000001', 'POST /passwordless/init', 'POST /passwordless/authenticate'])
      expect(r.loginRequests.analytics).toContain('login_completed')
    }
    const w = results.wallet
    expect(w.coldStartToReady.runs).toBe(1)
    expect(w.createEthereumAndSolana.runs).toBe(1)
    expect(w.personalSignRoundTrip.runs).toBe(2)
    expect(w.personalSignRoundTrip.median).toBeGreaterThan(0)
    expect(w.deviceProof.verify.runs).toBe(2)
    expect(w.frameBundle.gzip).toBeGreaterThan(0)
    expect(stdout).toMatch(/personal_sign round trip\s+median [\d.]+ ms/)
  })
})
