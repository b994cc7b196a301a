/**
 * Allow / Not now on a page of the wallet service that acts for the user (the delegation
 * consent page, the EIP-7702 authorisation page): resolves with the user's choice, 'allow'
 * only from a trusted click (or key press) on Allow once armed. Allow arms only after the page
 * has been painted and shown for `armMs` (a click aimed at something the host showed a moment
 * before does not land on it) and, where the browser supports IntersectionObserver v2, only
 * while the buttons are really visible: a host that makes the page transparent or covers it
 * with its own button disarms it. A click dispatched by a script is not the user's.
 */
export function trustedChoice(o: { allow: HTMLButtonElement; decline: HTMLButtonElement; actions: HTMLElement; main: HTMLElement; allowing: string; armMs: number }): Promise<'allow' | 'decline'> {
  const { allow, decline, actions, main } = o
  let shownLongEnough = false
  let visible = true
  let decided = false
  const arm = () => {
    if (decided) return
    const on = shownLongEnough && visible
    if (on) allow.removeAttribute('disabled')
    else allow.setAttribute('disabled', '')
    main.dataset.armed = String(on)
  }
  allow.setAttribute('disabled', '')
  requestAnimationFrame(() =>
    setTimeout(() => {
      shownLongEnough = true
      arm()
    }, o.armMs),
  )
  // The buttons' row (not the button: its disabled look is translucent, which would read as hidden).
  trackVisibility(actions, (v) => {
    visible = v
    arm()
  })
  return new Promise((resolve) => {
    allow.addEventListener('click', (e) => {
      if (!e.isTrusted || allow.hasAttribute('disabled')) return
      decided = true
      allow.setAttribute('disabled', '')
      decline.setAttribute('disabled', '')
      allow.textContent = o.allowing
      allow.setAttribute('aria-busy', 'true')
      resolve('allow')
    })
    decline.addEventListener('click', (e) => {
      if (!e.isTrusted) return
      resolve('decline')
    })
  })
}

/** Reports whether `target` is visible to the user (IntersectionObserver v2), where the browser supports it. */
function trackVisibility(target: Element, on: (visible: boolean) => void): void {
  if (typeof IntersectionObserver !== 'function') return
  try {
    const io = new IntersectionObserver(
      (entries) => {
        const e = entries[entries.length - 1] as IntersectionObserverEntry & { isVisible?: boolean }
        if (typeof e.isVisible === 'boolean') on(e.isVisible)
      },
      { threshold: [0], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
    )
    io.observe(target)
  } catch {
    // No visibility tracking: the arming delay and isTrusted still hold.
  }
}
