/**
 * A Phantom stand-in for browser tests: it answers Phantom's documented deep links
 * (https://docs.phantom.com/phantom-deeplinks: `/ul/v1/connect`, `/ul/v1/signMessage`) the
 * way the Phantom app does, by redirecting to `redirect_link` with
 * `phantom_encryption_public_key`, `nonce` and `data` sealed with a NaCl box (tweetnacl: an
 * implementation independent of the product's @noble code), or with `errorCode` /
 * `errorMessage` when told to refuse. Its Solana account is a real ed25519 key; the server
 * verifies the signature. Installed with `context.route` on https://phantom.app/ul/v1/**, so
 * the page really navigates there and back.
 */
import type { BrowserContext, Route } from 'playwright-core'
import nacl from 'tweetnacl'
import { base58 } from '@scure/base'

export interface PhantomStandIn {
  /** The wallet's Solana address (base58 of its ed25519 public key). */
  address: string
  /** Deep-link requests seen: 'connect' | 'signMessage'. */
  requests: string[]
  /** Messages signed (UTF-8). */
  signed: string[]
  /** Refuse the next request with errorCode 4001 ('User rejected the request.'). */
  rejectNext(): void
  /**
   * Answer the next request like a phone without the app: '204 No Content', so the
   * navigation does not happen and the page stays on the interstitial.
   */
  notInstalledNext(): void
}

export async function installPhantomStandIn(context: BrowserContext, baseUrl = 'https://phantom.app/ul/v1'): Promise<PhantomStandIn> {
  const signer = nacl.sign.keyPair()
  const box = nacl.box.keyPair()
  const address = base58.encode(signer.publicKey)
  const sessions = new Set<string>()
  const requests: string[] = []
  const signed: string[] = []
  let reject = false
  let notInstalled = false

  const redirect = (route: Route, link: string, params: Record<string, string>) => {
    const u = new URL(link)
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v)
    return route.fulfill({ status: 302, headers: { location: u.toString() } })
  }
  const seal = (value: unknown, dappKey: Uint8Array) => {
    const nonce = nacl.randomBytes(24)
    const data = nacl.box(new TextEncoder().encode(JSON.stringify(value)), nonce, dappKey, box.secretKey)
    return { phantom_encryption_public_key: base58.encode(box.publicKey), nonce: base58.encode(nonce), data: base58.encode(data) }
  }

  await context.route(`${baseUrl}/**`, async (route) => {
    const url = new URL(route.request().url())
    const method = url.pathname.split('/').pop() ?? ''
    requests.push(method)
    if (notInstalled) {
      notInstalled = false
      return route.fulfill({ status: 204 })
    }
    const q = url.searchParams
    const link = q.get('redirect_link')
    const dappKey = q.get('dapp_encryption_public_key')
    if (!link || !dappKey) return route.fulfill({ status: 400, body: 'missing redirect_link or dapp_encryption_public_key' })
    if (reject) {
      reject = false
      return redirect(route, link, { errorCode: '4001', errorMessage: 'User rejected the request.' })
    }
    const dapp = base58.decode(dappKey)
    if (method === 'connect') {
      if (!q.get('app_url') || !q.get('cluster')) return redirect(route, link, { errorCode: '-32602', errorMessage: 'Invalid params' })
      const session = base58.encode(nacl.randomBytes(32))
      sessions.add(session)
      return redirect(route, link, seal({ public_key: address, session }, dapp))
    }
    if (method === 'signMessage') {
      const nonce = q.get('nonce')
      const payload = q.get('payload')
      const opened = nonce && payload ? nacl.box.open(base58.decode(payload), base58.decode(nonce), dapp, box.secretKey) : null
      if (!opened) return redirect(route, link, { errorCode: '-32603', errorMessage: 'Could not decrypt the payload' })
      const body = JSON.parse(new TextDecoder().decode(opened)) as { message: string; session: string; display?: string }
      if (!sessions.has(body.session)) return redirect(route, link, { errorCode: '4100', errorMessage: 'Unauthorized' })
      const message = base58.decode(body.message)
      signed.push(new TextDecoder().decode(message))
      const signature = nacl.sign.detached(message, signer.secretKey)
      return redirect(route, link, seal({ signature: base58.encode(signature) }, dapp))
    }
    return redirect(route, link, { errorCode: '4200', errorMessage: `Unsupported method ${method}` })
  })

  return {
    address,
    requests,
    signed,
    rejectNext: () => void (reject = true),
    notInstalledNext: () => void (notInstalled = true),
  }
}
