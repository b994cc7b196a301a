// @vitest-environment happy-dom
/**
 * The in-page scripts of the e2e harness and `npm run bench` (test/e2e/page-scripts.ts), run in
 * a DOM that has no `__name` helper, as the browser page has none. The browser half of the same
 * check is test/e2e/bench.spec.ts, which runs the bench itself under tsx.
 */
import { runInNewContext } from 'node:vm'
import { transform } from 'esbuild'
import { afterEach, describe, expect, it } from 'vitest'
import { LANDING_TITLE, LAST_OPEN, NAME_SHIM, NEXT_IDLE, OPEN_TIMER, PAGE_INIT_SCRIPT, until } from '../e2e/page-scripts'

const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)))
const run = (code: string) => (0, eval)(code)

function landing() {
  const d = document.createElement('div')
  d.setAttribute('role', 'dialog')
  d.setAttribute('data-screen', 'landing')
  d.innerHTML = '<h2 class="portico-title">Log in or sign up</h2>'
  return d
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('page scripts', () => {
  it('are plain strings that parse on their own (no helper from the Node side)', () => {
    for (const s of [NAME_SHIM, OPEN_TIMER, PAGE_INIT_SCRIPT, LAST_OPEN, NEXT_IDLE, until('1')]) {
      expect(typeof s).toBe('string')
      expect(() => new Function(s)).not.toThrow()
      expect(s).not.toMatch(/__name\(/)
    }
  })

  it('a function transpiled with keepNames (as tsx does) fails in a page without __name, and runs with the shim', async () => {
    const { code } = await transform('globalThis.f = () => { const check = () => 42; return check() }', { keepNames: true, loader: 'ts' })
    const body = code.replace(/^var __defProp[\s\S]*?\n(?=globalThis)/, '')
    expect(body).toContain('__name(')
    expect(() => runInNewContext(`${body}; f()`, {})).toThrow(/__name is not defined/)
    expect(runInNewContext(`${NAME_SHIM}; ${body}; f()`, {})).toBe(42)
  })

  it('the open timer measures click → landing heading in the DOM, once per open', async () => {
    run(PAGE_INIT_SCRIPT)
    run(PAGE_INIT_SCRIPT) // installing twice keeps one timer
    const opens = (window as unknown as { __porticoOpens: { dom: number; frame: number }[] }).__porticoOpens
    const button = document.createElement('button')
    document.body.appendChild(button)
    expect(run(LAST_OPEN)).toBe(null)

    button.click()
    document.body.appendChild(landing())
    await frame()
    await frame()
    expect(opens).toHaveLength(1)
    expect(opens[0].dom).toBeGreaterThanOrEqual(0)
    expect(opens[0].frame).toBeGreaterThanOrEqual(opens[0].dom)
    expect(run(LAST_OPEN)).toMatchObject({ count: 1 })

    // A click inside the open modal is not an open.
    ;(document.querySelector(LANDING_TITLE) as HTMLElement).click()
    document.querySelector(LANDING_TITLE)!.textContent = 'changed'
    await frame()
    expect(opens).toHaveLength(1)

    // Closed and opened again: a second (warm) open.
    document.querySelector('[role=dialog]')!.remove()
    await frame()
    button.click()
    document.body.appendChild(landing())
    await frame()
    await frame()
    expect(opens).toHaveLength(2)
  })

  it('the timer and until() keep real time when the page fakes its clock after start (page.clock)', async () => {
    run(PAGE_INIT_SCRIPT)
    const realNow = performance.now
    const realRaf = window.requestAnimationFrame
    try {
      performance.now = () => 0
      window.requestAnimationFrame = () => 0 // a paused fake clock: frames never come
      ;(window as unknown as { __flag2?: number }).__flag2 = 0
      const p = run(until('window.__flag2', 2000)) as Promise<number>
      setTimeout(() => ((window as unknown as { __flag2?: number }).__flag2 = 3), 20)
      await expect(p).resolves.toBe(3)
    } finally {
      performance.now = realNow
      window.requestAnimationFrame = realRaf
    }
  })

  it('until() resolves with the value once truthy and rejects after its time-out', async () => {
    ;(window as unknown as { __flag?: number }).__flag = 0
    const p = run(until('window.__flag', 2000)) as Promise<number>
    await frame()
    ;(window as unknown as { __flag?: number }).__flag = 7
    await expect(p).resolves.toBe(7)
    await expect(run(until('false', 30, 'never')) as Promise<unknown>).rejects.toThrow(/Timed out after 30 ms waiting for never/)
  })
})
