/**
 * Vitest set-up for every test file. Testing Library's `findBy*` / `waitFor` wait for the state
 * they look for; their default deadline (1 s) is too short for a lazily loaded screen on a busy
 * 2-core machine. A deadline, not a wait: a passing assertion returns as soon as it holds.
 */
import { configure } from '@testing-library/dom'

configure({ asyncUtilTimeout: 10_000 })
