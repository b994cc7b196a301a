/**
 * The EIP-7702 authorisation page (/apps/{appId}/embedded-wallets/authorize, on the wallet
 * service's origin, under a strict CSP of its own). The smart-wallet plugin's 'Upgrade your
 * wallet' screen embeds it. It answers only its parent window from one of the app's allowed
 * origins: `ready`, then ONE `smart-wallet:authorize-7702` with the access token, the wallet
 * and the proposed authorisation.
 *
 * It shows the app's name (from the server's settings, not the host's), the wallet, the
 * contract by its name and address, the chain, and what delegating means, with Allow / Not now.
 * A contract it does not know, or chain id 0, is refused before anything is shown. Only a
 * trusted click on Allow in THIS document, once armed (consent/choice.ts), unlocks the wallet
 * and signs the authorisation (authorize/sign.ts); the host gets the signature only.
 */
import { FRAME_PROTOCOL, AUTHORIZE_ESCAPE, AUTHORIZE_REQUEST, AUTHORIZE_RESIZE, type AuthorizePayload, type AuthorizeReply } from '../../src/wire/frame'
import '../messages'
import { FrameFailure, type FrameConfig, type FrameContext } from '../context'
import { el, embeddedPage } from '../page-dom'
import { trustedChoice } from '../consent/choice'
import { checkAuthorizePayload, implementationName, signAuthorizationFor } from './sign'

export interface AuthorizeConfig extends FrameConfig {
  appName: string
  theme: 'light' | 'dark'
  colors: { accent?: string; background?: string; foreground?: string }
}

/** How long Allow stays disarmed after the page shows (ms): as the consent page's. */
export const AUTHORIZE_ARM_MS = 600

export const AUTHORIZE_PAGE_TEXTS = {
  title: '{app} wants to upgrade your wallet to a smart account.',
  lead: 'Your wallet keeps its address and its funds. From now on the contract below runs your wallet’s transactions: batched calls, and gas an app can pay for you.',
  walletLabel: 'Wallet',
  contractLabel: 'Contract',
  chainLabel: 'Network',
  chain: 'Chain {chainId}',
  warning: 'Only allow this if you trust {app}. Your wallet stays delegated until you change it.',
  allow: 'Allow',
  allowing: 'Allowing…',
  decline: 'Not now',
  onlyOnce: 'This authorisation page has already been used.',
  failed: 'Something went wrong.',
} as const

const T = AUTHORIZE_PAGE_TEXTS
const page = embeddedPage<AuthorizeConfig>({ config: 'portico-authorize-config', main: 'authorize', theme: 'c' })
const { config, main, toHost } = page

const short = (a: string) => (a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a)

function reportHeight() {
  toHost({ protocol: FRAME_PROTOCOL, type: AUTHORIZE_RESIZE, height: Math.ceil(document.documentElement.scrollHeight) })
}

function renderError(message: string) {
  main.replaceChildren(el('p', { class: 'c-error', role: 'alert' }, message))
  main.dataset.state = 'error'
  reportHeight()
}

function row(label: string, value: string, title: string, testId: string, chip?: string) {
  return el(
    'div',
    { class: 'c-wallet', 'data-testid': testId, title },
    el('span', { class: 'c-label' }, label),
    el('span', { class: 'c-address' }, value),
    ...(chip ? [el('span', { class: 'c-chip' }, chip)] : []),
  )
}

function showAuthorization(p: AuthorizePayload): Promise<'allow' | 'decline'> {
  const allow = el('button', { type: 'button', class: 'c-allow', 'data-testid': 'authorize-allow', disabled: '' }, T.allow)
  const decline = el('button', { type: 'button', class: 'c-decline', 'data-testid': 'authorize-decline' }, T.decline)
  const actions = el('div', { class: 'c-actions' }, decline, allow)
  main.replaceChildren(
    el('h1', { class: 'c-title', id: 'c-title' }, T.title.replace('{app}', config.appName)),
    el('p', { class: 'c-lead' }, T.lead),
    row(T.walletLabel, short(p.address), p.address, 'authorize-wallet', 'Ethereum'),
    row(T.contractLabel, implementationName(p.contractAddress)!, p.contractAddress, 'authorize-contract', short(p.contractAddress)),
    row(T.chainLabel, T.chain.replace('{chainId}', String(p.chainId)), String(p.chainId), 'authorize-chain'),
    el('p', { class: 'c-lead c-warning', 'data-testid': 'authorize-warning' }, T.warning.replace('{app}', config.appName)),
    actions,
  )
  main.dataset.state = 'authorize'
  reportHeight()
  return trustedChoice({ allow, decline, actions, main, allowing: T.allowing, armMs: AUTHORIZE_ARM_MS })
}

let used = false

async function authorize(payload: AuthorizePayload, ctx: FrameContext): Promise<AuthorizeReply> {
  if (used) throw new FrameFailure('invalid_request_arguments', T.onlyOnce)
  used = true
  checkAuthorizePayload(payload)
  if ((await showAuthorization(payload)) === 'decline') return { declined: true }
  return { authorization: await signAuthorizationFor(ctx, payload) }
}

page.serve<typeof AUTHORIZE_REQUEST, AuthorizePayload>({
  request: AUTHORIZE_REQUEST,
  escape: AUTHORIZE_ESCAPE,
  run: authorize,
  error: (err) => (err instanceof FrameFailure ? { type: err.type, message: err.message } : { type: 'error', message: T.failed }),
  shown: (e, err) => void (!(err instanceof FrameFailure && err.message === T.onlyOnce) && renderError(e.message)),
})

new ResizeObserver(() => reportHeight()).observe(main)
main.dataset.state = 'loading'
