/**
 * Once per browser phase (vitest.e2e.config.ts, what `npm test` runs): one Chromium for every
 * spec file of the run, as a browser server. `launchBrowser()` in ./harness.ts connects to it
 * (each spec file its own connection and its own contexts) instead of starting a browser per
 * spec file; it stops when the run ends.
 */
import type { TestProject } from 'vitest/node'
import { chromium } from 'playwright-core'
import { chromiumArgs, chromiumPath } from './harness'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared Chromium (a playwright browser server); absent when each spec launches its own. */
    e2eBrowserWsEndpoint: string | null
  }
}

export default async function setup(project: TestProject) {
  const server = await chromium.launchServer({ executablePath: chromiumPath(), args: chromiumArgs() })
  project.provide('e2eBrowserWsEndpoint', server.wsEndpoint())
  return () => server.close()
}
