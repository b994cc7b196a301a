import { defineConfig } from 'vitest/config'
import { sourceAliases } from './source-aliases'

export default defineConfig({
  resolve: { alias: sourceAliases },
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
