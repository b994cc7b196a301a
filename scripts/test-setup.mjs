#!/usr/bin/env node
/**
 * The first step of `npm test`: finds a Chromium or Chrome and PostgreSQL (scripts/test-env.mjs).
 * On Debian as root it installs what is missing (apt-get: chromium, postgresql); otherwise,
 * without a browser, it stops before anything runs with one message naming the command to run.
 * It says whether the PostgreSQL suites run or are skipped and why; under CI=true a skip is a
 * failure. `--dry-run` prints the apt-get commands instead of running them.
 */
import { spawnSync } from 'node:child_process'
import { machineProbe, planSetup } from './test-env.mjs'

const dryRun = process.argv.includes('--dry-run')

/** Runs apt-get like .ci/run used to; returns an error text or null. */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const steps = [
    ['apt-get', ['update', '-qq']],
    ['apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages]],
  ]
  for (const [cmd, args] of steps) {
    if (dryRun) {
      console.log(`test setup (dry run): would run: ${cmd} ${args.join(' ')}`)
      continue
    }
    const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'inherit'] })
    if (r.status !== 0) return `test setup: \`${cmd} ${args.join(' ')}\` failed (${r.error ? r.error.message : `exit ${r.status}`}); see its output above.`
  }
  return null
}

function main() {
  let plan = planSetup(machineProbe())
  if (plan.install.length) {
    console.log(`test setup: installing ${plan.install.join(' ')} (apt-get; a minute or two)`)
    const failed = aptInstall(plan.install)
    if (failed) {
      console.error(failed)
      return 1
    }
    if (dryRun) return 0
    plan = planSetup(machineProbe(), { canInstall: false })
  }
  if (plan.stop) {
    console.error(`\n${plan.stop}\n`)
    return 1
  }
  for (const line of plan.lines) console.log(line)
  return 0
}

process.exitCode = main()
