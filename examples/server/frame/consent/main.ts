/**
 * The consent page (/apps/{appId}/embedded-wallets/delegate, on the wallet service's origin,
 * under a strict CSP of its own). The host's 'Enable offline access' screen embeds it. It
 * answers only its parent window from one of the app's allowed origins: `ready`, then ONE
 * `delegated-actions:consent` with the access token, the wallet and the proposed policy.
 *
 * It shows the app's name (from the server's settings, not the host's), the wallet and the
 * policy in plain words, and Allow / Not now. Only a trusted click on Allow in THIS document
 * (`event.isTrusted`: the host page cannot click here, and a message is not a click) runs the
 * delegation: unlock, seal the wallet's key with the policy to the server, POST
 * /wallets/delegate. Allow arms only after the page has been shown for CONSENT_ARM_MS, so a
 * click aimed at something the host showed a moment before does not land on it, and (where the
 * browser supports IntersectionObserver v2) only while the page is really visible: a host that
 * makes it transparent or covers it with its own button disarms it.
 */
import { FRAME_PROTOCOL, CONSENT_ESCAPE, CONSENT_REQUEST, CONSENT_RESIZE, type ConsentPayload, type ConsentReply, describePolicy, normalizePolicy, PolicyError, type DelegationPolicy } from '../../src/wire/frame'
import '../messages'
import { FrameFailure, type FrameConfig, type FrameContext } from '../context'
import { checkConsentPayload, sealAndDelegate } from './delegate'
import { trustedChoice } from './choice'
import { el, embeddedPage } from '../page-dom'

export interface ConsentConfig extends FrameConfig {
  appName: string
  theme: 'light' | 'dark'
  colors: { accent?: string; background?: string; foreground?: string }
}

/** How long Allow stays disarmed after the consent shows (ms). */
export const CONSENT_ARM_MS = 600

export const CONSENT_PAGE_TEXTS = {
  // Spec part 2 (the consent screen's description), with the server's app name.
  description: '{app} wants to use your wallet while you are away.',
  lead: 'It will be able to do this with your wallet without asking you each time:',
  walletLabel: 'Wallet',
  allow: 'Allow',
  allowing: 'Allowing…',
  decline: 'Not now',
  onlyOnce: 'This consent page has already been used.',
  badPolicy: 'The app asked for offline access the wallet cannot give.',
  failed: 'Something went wrong.',
} as const

const T = CONSENT_PAGE_TEXTS
const page = embeddedPage<ConsentConfig>({ config: 'portico-consent-config', main: 'consent', theme: 'c' })
const { config, main, toHost } = page

const short = (a: string) => (a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a)

/** Tells the host how tall the content is (it sizes the iframe; nothing else crosses). */
function reportHeight() {
  toHost({ protocol: FRAME_PROTOCOL, type: CONSENT_RESIZE, height: Math.ceil(document.documentElement.scrollHeight) })
}

function renderError(message: string) {
  main.replaceChildren(el('p', { class: 'c-error', role: 'alert' }, message))
  main.dataset.state = 'error'
  reportHeight()
}

/**
 * Shows the consent; resolves with the user's decision: 'allow' only from a trusted click (or
 * key press) on Allow once armed.
 */
function showConsent(p: ConsentPayload, policy: DelegationPolicy): Promise<'allow' | 'decline'> {
  const until = new Date(Date.now() + policy.expires_in * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })
  const lines = describePolicy(p.chainType, policy, until)
  const allow = el('button', { type: 'button', class: 'c-allow', 'data-testid': 'consent-allow', disabled: '' }, T.allow)
  const decline = el('button', { type: 'button', class: 'c-decline', 'data-testid': 'consent-decline' }, T.decline)
  const actions = el('div', { class: 'c-actions' }, decline, allow)
  main.replaceChildren(
    el('h1', { class: 'c-title', id: 'c-title' }, T.description.replace('{app}', config.appName)),
    el('p', { class: 'c-lead' }, T.lead),
    el(
      'div',
      { class: 'c-wallet', 'data-testid': 'consent-wallet', title: p.address },
      el('span', { class: 'c-label' }, T.walletLabel),
      el('span', { class: 'c-address' }, short(p.address)),
      el('span', { class: 'c-chip' }, p.chainType === 'solana' ? 'Solana' : 'Ethereum'),
    ),
    el('ul', { class: 'c-policy', 'data-testid': 'consent-policy', 'aria-labelledby': 'c-title' }, ...lines.map((l) => el('li', {}, l))),
    actions,
  )
  main.dataset.state = 'consent'
  reportHeight()
  return trustedChoice({ allow, decline, actions, main, allowing: T.allowing, armMs: CONSENT_ARM_MS })
}

let used = false

async function consent(payload: ConsentPayload, ctx: FrameContext): Promise<ConsentReply> {
  if (used) throw new FrameFailure('invalid_request_arguments', T.onlyOnce)
  used = true
  checkConsentPayload(payload)
  let policy: DelegationPolicy
  try {
    policy = normalizePolicy(payload.chainType, payload.policy)
  } catch (err) {
    if (err instanceof PolicyError) throw new FrameFailure('invalid_request_arguments', T.badPolicy)
    throw err
  }
  if ((await showConsent(payload, policy)) === 'decline') return { declined: true }
  return sealAndDelegate(ctx, payload, policy)
}

page.serve<typeof CONSENT_REQUEST, ConsentPayload>({
  request: CONSENT_REQUEST,
  escape: CONSENT_ESCAPE,
  run: consent,
  error: (err) => (err instanceof FrameFailure ? { type: err.type, message: err.message } : { type: 'error', message: T.failed }),
  // A second request on a used page changes nothing on screen.
  shown: (e, err) => void (!(err instanceof FrameFailure && err.message === T.onlyOnce) && renderError(e.message)),
})

new ResizeObserver(() => reportHeight()).observe(main)
main.dataset.state = 'loading'
