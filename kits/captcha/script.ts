/**
 * Loads a provider's widget script once (a `<script src>` from its configurable origin; no
 * inline code, so a strict CSP only needs the origin in script-src). A blocked or unreachable
 * script rejects: only captcha is affected, never start-up.
 */
const loading = new Map<string, Promise<void>>()

export { SCRIPT_TIMEOUT_MS } from './constants'
import { SCRIPT_TIMEOUT_MS } from './constants'

export function loadScript(src: string, ready: () => boolean, doc: Document | undefined = typeof document !== 'undefined' ? document : undefined): Promise<void> {
  if (ready()) return Promise.resolve()
  const known = loading.get(src)
  if (known) return known
  const p = new Promise<void>((resolve, reject) => {
    if (!doc) return reject(new Error('No document to load the captcha script into.'))
    const el = doc.createElement('script')
    const timer = setTimeout(() => fail(new Error('The captcha script did not load in time.')), SCRIPT_TIMEOUT_MS)
    const fail = (e: Error) => {
      clearTimeout(timer)
      loading.delete(src)
      el.remove()
      reject(e)
    }
    el.src = src
    el.async = true
    el.onload = () => {
      clearTimeout(timer)
      if (ready()) resolve()
      else fail(new Error('The captcha script loaded but defined no widget.'))
    }
    el.onerror = () => fail(new Error('The captcha script could not be loaded (blocked or unreachable).'))
    doc.head.appendChild(el)
  })
  loading.set(src, p)
  return p
}
