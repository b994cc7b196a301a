/**
 * The one popup host of the house (the OAuth kit, cross-app's transact page, the wallet's cloud
 * recovery, the example plugin). A popup opens synchronously inside the click (browsers block
 * later ones), empty, and is pointed at its page once the address is known. Its answer comes
 * back by `postMessage`: a message counts only from that window (`event.source`) and the
 * expected origin; a closed window is the user rejecting (checked every 300 ms, one poll of grace
 * for an answer posted just before the page closed itself); a time-out
 * (120 s by default).
 */

const POLL_MS = 300
const TIMEOUT_MS = 120_000

/** A popup window (a fake in unit tests). */
export interface PopupWindow {
  closed: boolean
  close(): void
  location: { href: string } | Location
}

/** What a popup flow needs from the browser window (a fake in unit tests). */
export interface PopupHost {
  open(url: string, target: string, features: string): PopupWindow | null
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  location: { origin: string }
  /** On the popup page: the window that opened it. */
  opener?: { postMessage(message: unknown, targetOrigin: string): void } | null
  /** On the popup page: closes it. */
  close?(): void
}

/** Open an empty popup now, inside the click; null when the browser blocked it. */
export function openPopup(host: Pick<PopupHost, 'open'>, name: string, features: string): PopupWindow | null {
  try {
    return host.open('', name, features)
  } catch {
    return null
  }
}

export interface WatchPopupOptions<T> {
  /** The origin the popup's message must come from. */
  origin: string
  /** A message from our popup: the value it carries, an error to fail with, or undefined to ignore it. */
  accept(data: unknown): { value: T } | { error: unknown } | undefined
  originMismatch(): unknown
  rejected(): unknown
  timedOut(): unknown
  /** Default 120 s. */
  timeoutMs?: number
  /** How often a closed window is checked for. Default 300 ms. */
  pollMs?: number
  /**
   * Polls a closed window is given before it counts as rejected. Default 1: a page that posts its
   * answer and then closes itself is read as closed before that message arrives when the machine is busy.
   */
  closeGrace?: number
}

export interface PopupWatch<T> {
  readonly result: Promise<T>
  /** End it as rejected (no-op once settled). */
  cancel(): void
  /** End it with this error (no-op once settled). */
  fail(error: unknown): void
}

/**
 * Watch a popup until it answers: messages count only from that window (`event.source`) and
 * the expected origin; a closed window is the user rejecting; a time-out. The window closes
 * when the watch ends. `result` never rejects unhandled.
 */
export function watchPopup<T>(
  host: Pick<PopupHost, 'addEventListener' | 'removeEventListener'>,
  popup: PopupWindow,
  o: WatchPopupOptions<T>,
): PopupWatch<T> {
  let fail: (error: unknown) => void = () => {}
  const result = new Promise<T>((resolve, reject) => {
    let settled = false
    let closedPolls = 0
    const finish = (error: unknown, value?: { value: T }) => {
      if (settled) return
      settled = true
      host.removeEventListener('message', onMessage)
      clearInterval(poll)
      clearTimeout(timer)
      if (!popup.closed) popup.close()
      if (value) resolve(value.value)
      else reject(error)
    }
    const onMessage = (event: MessageEvent) => {
      if (event.source !== (popup as unknown)) return // another window or frame: not ours to judge
      if (event.origin !== o.origin) return finish(o.originMismatch())
      const answer = o.accept(event.data)
      if (!answer) return
      if ('error' in answer) finish(answer.error)
      else finish(null, answer)
    }
    host.addEventListener('message', onMessage)
    const poll = setInterval(() => {
      if (!popup.closed) return
      if (closedPolls++ >= (o.closeGrace ?? 1)) finish(o.rejected())
    }, o.pollMs ?? POLL_MS)
    const timer = setTimeout(() => finish(o.timedOut()), o.timeoutMs ?? TIMEOUT_MS)
    fail = (error) => finish(error)
  })
  result.catch(() => {})
  return { result, cancel: () => fail(o.rejected()), fail: (error) => fail(error) }
}
