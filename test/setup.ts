/**
 * Vitest set-up for every test file. Testing Library's `findBy*` / `waitFor` and vitest's
 * `vi.waitFor` / `vi.waitUntil` wait for the state they look for; their default deadlines (1 s)
 * are too short for a lazily loaded screen or a chain of promises on a busy 2-core machine.
 * A deadline, not a wait: a passing assertion returns as soon as it holds.
 */
import { vi } from 'vitest'
import { configure } from '@testing-library/dom'

const ASYNC_DEADLINE_MS = 10_000

configure({ asyncUtilTimeout: ASYNC_DEADLINE_MS })

// vitest has no setting for these defaults: an explicit timeout (number or option) still wins.
const { waitFor, waitUntil } = vi
const withDeadline = <O extends { timeout?: number }>(options?: number | O): number | O =>
  typeof options === 'number' ? options : ({ timeout: ASYNC_DEADLINE_MS, ...options } as O)
vi.waitFor = ((callback, options) => waitFor(callback, withDeadline(options))) as typeof vi.waitFor
vi.waitUntil = ((callback, options) => waitUntil(callback, withDeadline(options))) as typeof vi.waitUntil
