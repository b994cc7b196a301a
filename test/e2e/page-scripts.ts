/**
 * Code that runs INSIDE the page, shared by the e2e harness and `npm run bench`.
 *
 * Kept as plain JavaScript strings on purpose: a function handed to `page.evaluate` or
 * `addInitScript` is serialised with `Function.prototype.toString()`, and when the caller runs
 * under tsx (the bench) esbuild's `keepNames` wraps inner functions in `__name(...)`, a helper
 * that exists in Node but not in the page (`ReferenceError: __name is not defined`). A string
 * is sent as written. `test/bench/page-scripts.test.ts` runs these scripts in a DOM without
 * that helper; `test/e2e/bench.spec.ts` runs the bench itself under tsx.
 */

/** Selector of the landing's heading: the modal's first open is done when it is in the DOM. */
export const LANDING_TITLE = '[role=dialog][data-screen=landing] .portico-title'

/**
 * Defines `__name` as a no-op in the page, so functions serialised from code transpiled with
 * keepNames (tsx) still run. A safety net for `page.evaluate(() => …)` callers.
 */
export const NAME_SHIM = `if (typeof globalThis.__name !== 'function') {
  Object.defineProperty(globalThis, '__name', { value: function (f) { return f }, configurable: true, writable: true })
}`

/**
 * The page's own clock and frame callback, kept before any page script runs: a test that
 * fakes time (`page.clock.install()`) replaces `performance.now` and `requestAnimationFrame`,
 * and the timer and `until()` must keep running on real time.
 */
export const REAL_TIME = `if (!window.__porticoReal) {
  Object.defineProperty(window, '__porticoReal', {
    value: { now: performance.now.bind(performance), raf: window.requestAnimationFrame.bind(window) },
  })
}`
const R = `(window.__porticoReal || { now: performance.now.bind(performance), raf: window.requestAnimationFrame.bind(window) })`

/**
 * The modal-open timer, installed before any page script (`addInitScript`):
 *  - a capture-phase `click` listener on window starts a measurement (`performance.now()`),
 *    before React's own handler runs;
 *  - a MutationObserver on the document ends it when the landing heading is in the DOM
 *    (`dom`: click to the commit that inserted it) and one animation frame later (`frame`).
 * Results go to `window.__porticoOpens` (array of { dom, frame }); a click that does not
 * open the landing is superseded by the next click.
 */
export const OPEN_TIMER = `(function () {
  if (window.__porticoOpens) return
  var R = ${R}
  var opens = []
  var t0 = 0
  var seen = false
  Object.defineProperty(window, '__porticoOpens', { value: opens })
  window.addEventListener('click', function () {
    seen = !!document.querySelector(${JSON.stringify(LANDING_TITLE)})
    if (!seen) t0 = R.now()
  }, true)
  var check = function () {
    var present = !!document.querySelector(${JSON.stringify(LANDING_TITLE)})
    if (!present) { seen = false; return }
    if (seen || !t0) return
    seen = true
    var start = t0
    t0 = 0
    var entry = { dom: R.now() - start, frame: -1 }
    opens.push(entry)
    R.raf(function () { entry.frame = R.now() - start })
  }
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-screen'] })
})()`

/** Everything the harness installs in each page, in order. */
export const PAGE_INIT_SCRIPT = `${NAME_SHIM}\n${REAL_TIME}\n${OPEN_TIMER}`

/** An expression for `page.evaluate`: the newest completed open as { dom, frame } ms, or null. */
export const LAST_OPEN = `(function () {
  var o = window.__porticoOpens
  var last = o && o[o.length - 1]
  return last && last.frame >= 0 ? { dom: last.dom, frame: last.frame, count: o.length } : null
})()`

/**
 * An expression for `page.evaluate`: true once the dialog has no running animation and its
 * box has not moved since the previous call (kept on the element). Poll it before reading
 * geometry, so a read never lands inside the opening animation.
 */
export const DIALOG_SETTLED = `(function () {
  var el = document.querySelector('[role=dialog]')
  if (!el) return false
  var running = el.getAnimations({ subtree: true }).some(function (a) {
    return a.playState === 'running' && a.effect && a.effect.getTiming().iterations !== Infinity
  })
  var r = el.getBoundingClientRect()
  var box = [r.x, r.y, r.width, r.height].join(',')
  var same = el.__porticoBox === box
  el.__porticoBox = box
  return !running && same
})()`

/**
 * An expression for `page.evaluate` that resolves with the value of `expr` once it is truthy,
 * checked on every animation frame, and rejects after `timeoutMs`. Unlike a string given to
 * `page.waitForFunction`, which the page evaluates with `eval` (refused under the demo's
 * strict CSP), this runs as one script through the DevTools protocol, CSP or not.
 * It runs on real time even under `page.clock` (see REAL_TIME).
 */
export function until(expr: string, timeoutMs = 30_000, label = expr): string {
  return `new Promise(function (resolve, reject) {
  var R = ${R};
  var end = R.now() + ${Number(timeoutMs)};
  var tick = function () {
    var v;
    try { v = (${expr}); } catch (e) { reject(e); return; }
    if (v) resolve(v);
    else if (R.now() > end) reject(new Error('Timed out after ${Number(timeoutMs)} ms waiting for ' + ${JSON.stringify(label.slice(0, 200))}));
    else R.raf(tick);
  };
  tick();
})`
}

/**
 * An expression for `page.evaluate`: resolves at the page's next idle period (after the idle
 * callbacks queued before it, such as the modal's preload), as a user clicks after the page
 * has settled. Falls back to a timer where requestIdleCallback is missing.
 */
export const NEXT_IDLE = `new Promise(function (resolve) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(function () { resolve(true) }, { timeout: 5000 });
  else setTimeout(function () { resolve(true) }, 250);
})`
