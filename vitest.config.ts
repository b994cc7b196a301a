import { defineConfig } from 'vitest/config'
import { fileURLToPath } from 'node:url'

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^portico$/, replacement: r('./kernel/index.ts') },
      { find: /^portico\/ui$/, replacement: r('./ui/index.ts') },
      { find: /^portico\/testing$/, replacement: r('./test/kit/testing.ts') },
      { find: /^portico\/plugins\/(.*)$/, replacement: r('./plugins/$1/index.ts') },
    ],
  },
  test: {
    include: ['**/*.test.{ts,tsx}', 'test/e2e/**/*.spec.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '.data/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // Browser and server suites start processes of their own; keep the 2-core machines calm.
    maxWorkers: 2,
  },
})
