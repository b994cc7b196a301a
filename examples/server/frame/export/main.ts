/**
 * The export page (/apps/{appId}/embedded-wallets/export, on the wallet service's origin, under
 * a strict CSP of its own). The host's 'Transfer wallet' screen embeds it. It answers only its
 * parent window from one of the app's allowed origins: `ready`, then ONE `wallets:export` with
 * the access token. It rebuilds the root from the device share and the auth share (released
 * for 'export', so a fresh MFA verification when the user has a method), then renders the
 * private key (or the recovery phrase) with a QR code of 275 px and a Copy button HERE, in
 * this frame's own document: the host page cannot read it (another origin). The reply says
 * only `{ exported: true }`.
 */
import { encode } from 'uqr'
import { type ChainType, type EntropyIdVerifier, COPIED_MS, EXPORT_ESCAPE, EXPORT_QR_SIZE, type ExportRequestPayload } from '../../src/wire/frame'
import '../messages'
import { FrameFailure, type FrameConfig, type FrameContext } from '../context'
import { exportedKey, withRootSecret } from '../wallet-secret'
import { resilientStore } from '../storage-check'
import { frameStore, useFrameStore } from '../storage'
import { el, embeddedPage } from '../page-dom'

// Storage blocked on this site (a third-party frame): a clear text instead of the browser's.
useFrameStore(resilientStore(frameStore()))

export interface ExportConfig extends FrameConfig {
  primaryAddress: string
  address: string
  walletIndex: number
  phraseExport: boolean
  width: number | null
  theme: 'light' | 'dark'
  colors: { accent?: string; background?: string; foreground?: string }
}

export const EXPORT_FRAME_TEXTS = {
  loading: 'Loading…',
  keyLabel: 'Your private key',
  phraseLabel: 'Your recovery phrase',
  warning: 'Never share it with anyone.',
  copy: 'Copy',
  copied: 'Copied',
  qrKey: 'QR code of your private key',
  qrPhrase: 'QR code of your recovery phrase',
  onlyOnce: 'This export page has already been used.',
  walletMismatch: 'Embedded wallet not found',
  failed: 'Something went wrong.',
} as const

const T = EXPORT_FRAME_TEXTS
const page = embeddedPage<ExportConfig>({ config: 'portico-export-config', main: 'export', theme: 'x' })
const { config, main } = page

function qr(value: string, label: string): SVGSVGElement {
  const { data, size } = encode(value, { ecc: 'M', border: 2 })
  let d = ''
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (data[y][x]) d += `M${x} ${y}h1v1h-1z`
  const NS = 'http://www.w3.org/2000/svg'
  const svg = document.createElementNS(NS, 'svg')
  for (const [k, v] of Object.entries({ width: String(EXPORT_QR_SIZE), height: String(EXPORT_QR_SIZE), viewBox: `0 0 ${size} ${size}`, role: 'img', 'aria-label': label, 'shape-rendering': 'crispEdges', 'data-size': String(EXPORT_QR_SIZE) })) {
    svg.setAttribute(k, v)
  }
  const bg = document.createElementNS(NS, 'rect')
  bg.setAttribute('width', String(size))
  bg.setAttribute('height', String(size))
  bg.setAttribute('fill', '#fff')
  const path = document.createElementNS(NS, 'path')
  path.setAttribute('d', d)
  path.setAttribute('fill', '#000')
  svg.append(bg, path)
  return svg
}

async function copy(text: string, source: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    return
  } catch {
    // Clipboard API refused (no permission in this frame): copy the selection instead.
  }
  const range = document.createRange()
  range.selectNodeContents(source)
  const sel = getSelection()
  sel?.removeAllRanges()
  sel?.addRange(range)
  document.execCommand('copy')
  sel?.removeAllRanges()
}

function render(secret: string, phrase: boolean) {
  const value = el('code', { class: phrase ? 'x-secret x-phrase' : 'x-secret', id: 'x-secret', 'data-testid': 'export-secret', tabindex: '0' }, secret)
  const button = el('button', { type: 'button', class: 'x-copy', 'data-testid': 'export-copy' }, T.copy)
  let timer: ReturnType<typeof setTimeout> | undefined
  button.addEventListener('click', () => {
    void copy(secret, value).then(() => {
      button.textContent = T.copied
      clearTimeout(timer)
      timer = setTimeout(() => (button.textContent = T.copy), COPIED_MS)
    })
  })
  main.replaceChildren(
    el('h2', { class: 'x-sr', id: 'x-label' }, phrase ? T.phraseLabel : T.keyLabel),
    el('div', { class: 'x-qr' }, qr(secret, phrase ? T.qrPhrase : T.qrKey)),
    el('div', { class: 'x-box', role: 'group', 'aria-labelledby': 'x-label' }, value, button),
    el('p', { class: 'x-warning' }, T.warning),
  )
  main.dataset.state = 'shown'
}

function renderError(message: string) {
  main.replaceChildren(el('p', { class: 'x-error', role: 'alert' }, message))
  main.dataset.state = 'error'
}

const chainOf = (address: string): ChainType => (address.startsWith('0x') ? 'ethereum' : 'solana')
const sameAddress = (chain: ChainType, a: string, b: string) => (chain === 'ethereum' ? a.toLowerCase() === b.toLowerCase() : a === b)

let used = false

async function exportWallet(p: ExportRequestPayload, ctx: FrameContext): Promise<{ exported: true }> {
  if (used) throw new FrameFailure('invalid_request_arguments', T.onlyOnce)
  used = true
  try {
    await reveal(p, ctx)
  } catch (err) {
    used = false // a refused verification or a network failure may be retried
    throw err
  }
  return { exported: true }
}

async function reveal(p: ExportRequestPayload, ctx: FrameContext): Promise<void> {
  const chain = chainOf(config.address)
  const verifier: EntropyIdVerifier = p.entropyIdVerifier ?? (chainOf(config.primaryAddress) === 'ethereum' ? 'ethereum-address-verifier' : 'solana-address-verifier')
  await withRootSecret(ctx, { accessToken: p.accessToken, entropyId: config.primaryAddress, entropyIdVerifier: verifier }, 'export', async (s) => {
    if (!sameAddress(chain, s.root.address(chain, config.walletIndex), config.address)) throw new FrameFailure('error', T.walletMismatch)
    if (config.phraseExport) return render(s.phrase(), true)
    const key = await s.privateKey(chain, config.walletIndex)
    try {
      render(exportedKey(chain, key, s.root, config.walletIndex), false)
    } finally {
      key.fill(0)
    }
  })
}

page.serve<'wallets:export', ExportRequestPayload>({
  request: 'wallets:export',
  escape: EXPORT_ESCAPE,
  run: exportWallet,
  error: (err) => (err instanceof FrameFailure ? { type: err.type, message: err.message } : { type: 'error', message: (err as Error)?.message || T.failed }),
  // The user sees why here too (e.g. 'Wallet is not on this device'); the host gets the same error to show.
  shown: (e) => renderError(e.message),
})

main.dataset.state = 'loading'
