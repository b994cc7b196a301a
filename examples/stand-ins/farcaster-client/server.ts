/**
 * A local stand-in for the Farcaster client API's signed key requests (tests and the offline
 * demo), following Farcaster's documented requests and responses:
 *
 * - POST /v2/signed-key-requests {key, requestFid, signature, deadline} →
 *   {result: {signedKeyRequest: {token, deeplinkUrl, key, state: 'pending'}}}. The EIP-712
 *   SignedKeyRequest signature must come from the custody address of `requestFid` on the
 *   IdRegistry (the local chain, as the login feature looks it up), and the deadline must not
 *   have passed; 400 {errors: [{message}]} otherwise.
 * - GET /v2/signed-key-request?token= → the same object; state pending → approved (with
 *   userFid) → completed (the read after approval: the key is on chain), revoked, or expired
 *   once the deadline passed unapproved.
 * - Test only (what the user does in the Farcaster app): POST /test/signed-key-requests/approve
 *   {key, userFid}, POST /test/signed-key-requests/revoke {key}.
 *
 * `approvedKeys(fid)` is what the KeyRegistry would hold: the hub stand-in (./hub.ts, mounted
 * here: POST /v1/submitMessage) checks casts against it.
 */
import { randomBytes } from 'node:crypto'
import { Hono } from 'hono'
import { createPublicClient, http, isHex, parseAbi, verifyTypedData, type Address, type Hex } from 'viem'
import { createHubStandIn } from './hub'
import { ED25519_KEY, SIGNED_KEY_REQUEST_DOMAIN, SIGNED_KEY_REQUEST_TYPES } from '../../server/src/features/farcaster-signer/eip712'

export interface FarcasterClientStandInOptions {
  /** JSON-RPC URL of the chain holding the IdRegistry. */
  rpcUrl: string
  idRegistry: Address
  /** Base of the deep link the QR code carries (default Warpcast's). */
  deeplinkBase?: string
}

interface Request {
  token: string
  deeplinkUrl: string
  key: Hex
  requestFid: number
  deadline: number
  state: 'pending' | 'approved' | 'completed' | 'revoked'
  userFid?: number
}

const ABI = parseAbi(['function custodyOf(uint256 fid) view returns (address)'])
const nowS = () => Math.floor(Date.now() / 1000)
const fail = (message: string) => ({ errors: [{ message }] })

export function createFarcasterClientStandIn(o: FarcasterClientStandInOptions) {
  const client = createPublicClient({ transport: http(o.rpcUrl, { timeout: 10_000, retryCount: 0 }) })
  const byToken = new Map<string, Request>()
  const byKey = new Map<string, Request>()
  const app = new Hono()

  const view = (r: Request) => {
    const expired = r.state === 'pending' && r.deadline <= nowS()
    return {
      token: r.token,
      deeplinkUrl: r.deeplinkUrl,
      key: r.key,
      state: expired ? 'expired' : r.state,
      ...(r.userFid !== undefined && (r.state === 'approved' || r.state === 'completed') ? { userFid: r.userFid } : {}),
    }
  }

  app.post('/v2/signed-key-requests', async (c) => {
    const b = (await c.req.json().catch(() => null)) as { key?: unknown; requestFid?: unknown; signature?: unknown; deadline?: unknown } | null
    if (!b || typeof b.key !== 'string' || !ED25519_KEY.test(b.key.toLowerCase())) return c.json(fail('key must be a 32-byte Ed25519 public key (0x hex)'), 400)
    if (typeof b.requestFid !== 'number' || !Number.isSafeInteger(b.requestFid) || b.requestFid <= 0) return c.json(fail('requestFid must be a positive integer'), 400)
    if (typeof b.deadline !== 'number' || !Number.isSafeInteger(b.deadline)) return c.json(fail('deadline must be a unix time in seconds'), 400)
    if (typeof b.signature !== 'string' || !isHex(b.signature)) return c.json(fail('signature must be 0x hex'), 400)
    if (b.deadline <= nowS()) return c.json(fail('deadline has passed'), 400)
    let custody: Address
    try {
      custody = await client.readContract({ address: o.idRegistry, abi: ABI, functionName: 'custodyOf', args: [BigInt(b.requestFid)] })
    } catch {
      return c.json(fail('IdRegistry lookup failed'), 503)
    }
    if (/^0x0{40}$/i.test(custody)) return c.json(fail(`fid ${b.requestFid} is not registered`), 400)
    const key = b.key.toLowerCase() as Hex
    const ok = await verifyTypedData({
      address: custody,
      domain: SIGNED_KEY_REQUEST_DOMAIN,
      types: SIGNED_KEY_REQUEST_TYPES,
      primaryType: 'SignedKeyRequest',
      message: { requestFid: BigInt(b.requestFid), key, deadline: BigInt(b.deadline) },
      signature: b.signature,
    }).catch(() => false)
    if (!ok) return c.json(fail("signature is not the requestFid's custody signature of this SignedKeyRequest"), 400)
    const token = `0x${randomBytes(12).toString('hex')}`
    const r: Request = {
      token,
      deeplinkUrl: `${o.deeplinkBase ?? 'farcaster://signed-key-request'}?token=${token}`,
      key,
      requestFid: b.requestFid,
      deadline: b.deadline,
      state: 'pending',
    }
    byToken.set(token, r)
    byKey.set(key, r)
    return c.json({ result: { signedKeyRequest: view(r) } })
  })

  app.get('/v2/signed-key-request', (c) => {
    const r = byToken.get(c.req.query('token') ?? '')
    if (!r) return c.json(fail('unknown token'), 404)
    const out = view(r)
    // Approved in the app: the next read finds the key added on chain.
    if (r.state === 'approved') r.state = 'completed'
    return c.json({ result: { signedKeyRequest: out } })
  })

  const testBody = async (c: { req: { json(): Promise<unknown> } }) => {
    const b = (await c.req.json().catch(() => null)) as { key?: string; userFid?: number } | null
    return { r: typeof b?.key === 'string' ? byKey.get(b.key.toLowerCase()) : undefined, userFid: b?.userFid }
  }
  app.post('/test/signed-key-requests/approve', async (c) => {
    const { r, userFid } = await testBody(c)
    if (!r || r.state !== 'pending' || r.deadline <= nowS()) return c.json(fail('no pending request for this key'), 404)
    if (typeof userFid !== 'number' || !Number.isSafeInteger(userFid) || userFid <= 0) return c.json(fail('userFid must be a positive integer'), 400)
    r.state = 'approved'
    r.userFid = userFid
    return c.json({ result: { signedKeyRequest: view(r) } })
  })
  app.post('/test/signed-key-requests/revoke', async (c) => {
    const { r } = await testBody(c)
    if (!r || (r.state !== 'pending' && r.state !== 'approved' && r.state !== 'completed')) return c.json(fail('no request for this key'), 404)
    r.state = 'revoked'
    return c.json({ result: { signedKeyRequest: view(r) } })
  })

  /** The keys approved (on chain) for a fid: what a hub checks a message's signer against. */
  const approvedKeys = (fid: number): Hex[] =>
    [...byKey.values()].filter((r) => (r.state === 'approved' || r.state === 'completed') && r.userFid === fid).map((r) => r.key)

  app.route('/', createHubStandIn({ approvedKeys }))
  return { app, approvedKeys }
}
