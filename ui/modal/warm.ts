/**
 * The dialog's style warm-up (see ./preload.ts): in the dialog's chunk (./dialog.tsx
 * re-exports it), so its markup is not in the page's initial load.
 */

/** The landing's skeleton: the classes whose rules and fonts the first open needs. */
const SKELETON =
  '<div class="portico-dialog" data-screen="landing"><div class="portico-screen"><div class="portico-header"></div>' +
  '<div class="portico-body"><h2 class="portico-title">Log in or sign up</h2><p class="portico-description">Portico</p>' +
  '<div class="portico-input-wrap"><input class="portico-input" type="email" tabindex="-1"></div>' +
  '<button class="portico-button" data-variant="primary" tabindex="-1">Submit</button>' +
  '<button class="portico-list-button" tabindex="-1">Continue</button></div>' +
  '<div class="portico-footer"><p class="portico-legal">By logging in I agree</p></div></div></div>'

/**
 * Insert a hidden skeleton of the dialog, force style and layout, remove it: the first real
 * open then finds the rules matched before and the fonts resolved. Visibility and position go
 * through the CSSOM (allowed under a strict CSP, unlike a style attribute). Returns false when
 * there is no document or the page refuses the markup (Trusted Types).
 */
export function warmStyles(theme: 'light' | 'dark' = 'light'): boolean {
  if (typeof document === 'undefined' || !document.body) return false
  const root = document.createElement('div')
  root.className = 'portico-root'
  root.setAttribute('data-theme', theme)
  root.setAttribute('aria-hidden', 'true')
  root.setAttribute('data-portico-warmup', '')
  root.inert = true
  root.style.cssText = 'visibility:hidden!important;position:fixed!important;left:-10000px!important;pointer-events:none!important'
  try {
    root.innerHTML = SKELETON
    document.body.appendChild(root)
    void root.getBoundingClientRect()
    return true
  } catch {
    return false
  } finally {
    root.remove()
  }
}
