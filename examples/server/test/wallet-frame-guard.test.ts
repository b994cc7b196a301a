/** The wallet frame's message rule (examples/server/frame/guard.ts): parent window and allowed origin only. */
import { expect, it } from 'vitest'
import { accepts } from '../frame/guard'

it('accepts only the parent window from an allowed origin', () => {
  const parent = {}
  const self = {}
  const other = {}
  const allowed = ['http://localhost:5173', 'tauri://localhost']
  expect(accepts({ origin: 'http://localhost:5173', source: parent }, parent, self, allowed)).toBe(true)
  expect(accepts({ origin: 'tauri://localhost', source: parent }, parent, self, allowed)).toBe(true)
  expect(accepts({ origin: 'http://evil.example', source: parent }, parent, self, allowed)).toBe(false)
  expect(accepts({ origin: 'http://localhost:5173', source: other }, parent, self, allowed)).toBe(false)
  expect(accepts({ origin: 'http://localhost:5173', source: null }, parent, self, allowed)).toBe(false)
  // A top-level frame page (no embedding parent) answers nobody.
  expect(accepts({ origin: 'http://localhost:5173', source: self }, self, self, allowed)).toBe(false)
  expect(accepts({ origin: 'null', source: parent }, parent, self, allowed)).toBe(false)
})
