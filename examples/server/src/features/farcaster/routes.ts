/**
 * Sign In With Farcaster (SIWF). The server runs the channel itself (no outside relay):
 *
 * - POST /farcaster/init → { channel_token, connect_uri, nonce }: a channel for the requesting
 *   origin (domain and SIWE URI), 5 minutes, its token stored only as a hash.
 * - The Farcaster app (Warpcast, or the local stand-in in tests) opens connect_uri, signs the
 *   SIWF message with the fid's custody key and posts it to this server's relay endpoint
 *   POST /farcaster-relay/v1/channel/authenticate (the relay wire of @farcaster/auth-client:
 *   `Authorization: Bearer <channel token>`, `X-Farcaster-Auth-Relay-Key` when a key is set).
 * - GET /farcaster/status (header farcaster-channel-token) → { state, message, signature, fid, ... }.
 * - POST /farcaster/authenticate | link { channel_token, message, signature, fid }: verified with
 *   @farcaster/auth-client (domain, nonce, expiry, chain, fid resource, signature), the signer
 *   must be the fid's custody address (IdRegistry on Optimism through a configurable RPC),
 *   and the channel is used once (consumed in the same transaction as the login).
 * - /farcaster/unlink { fid }, /farcaster/transfer { nonce, farcaster_id }.
 */
import { requireCaptcha } from '../../captcha'
import type { CreateClientArgs } from '@farcaster/auth-client'

type EthereumConnector = CreateClientArgs['ethereum']
import { createPublicClient, http, isHex, parseAbi, type Address, type Client, type Hex } from 'viem'
import { z } from 'zod'
import type { AppSettings } from '../../config'
import { methodEnabled } from '../../config'
import { clientIp, type C, type ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { linkAccount, loginWithAccount, transferAccount, unlinkAccount, type AccountInput } from '../../core/identity'
import { hitLimit } from '../../codes'
import { checkIssuedAt, checkUri } from '../../nonces'
import type { Queryable } from '../../core/store'
import { Hono } from 'hono'
import type { Env } from '../../core/context'
import { now, randomToken, sha256 } from '../../core/identity/tokens'
import { id, mode, optId, text } from '../../core/validate'
import { router } from '../../core/router'
import { currentGuest } from '../../core/auth'
import { bearer } from '../../core/auth'
import { unavailable } from './errors'
import { completeChannel, insertChannel, selectChannel, useChannel, type ChannelRow } from './repo'

/** The Farcaster IdRegistry on Optimism (its `idOf(custody)` / `custodyOf(fid)`). */
export const ID_REGISTRY_ADDRESS: Address = '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b'
export const FARCASTER_CHANNEL_TTL_S = 300

export interface FarcasterOptions {
  /** Optimism JSON-RPC URL for the custody-address lookup (default the public Optimism endpoint). */
  rpcUrl?: string
  /** IdRegistry address (default the Optimism deployment). */
  idRegistry?: Address
  /** When set, the relay endpoint requires this X-Farcaster-Auth-Relay-Key. */
  relayKey?: string
  /** Base of the connect URI the QR code / open-app button carries. */
  connectUrl?: string
  /** Farcaster signers (issue 30): base URL of the Farcaster client API (default https://api.farcaster.xyz). */
  clientApiUrl?: string
}

export const DEFAULT_FARCASTER = {
  rpcUrl: 'https://mainnet.optimism.io',
  connectUrl: 'https://warpcast.com/~/sign-in-with-farcaster',
}

const ID_REGISTRY_ABI = parseAbi(['function idOf(address owner) view returns (uint256)'])

/** The Ethereum connector @farcaster/auth-client verifies with: our RPC, our registry, custody only. */
export function farcasterConnector(o: FarcasterOptions): EthereumConnector {
  const publicClient = createPublicClient({
    transport: http(o.rpcUrl ?? DEFAULT_FARCASTER.rpcUrl, { timeout: 10_000, retryCount: 1 }),
  })
  return {
    publicClient: publicClient as unknown as Client,
    getFid: (custody: Address) =>
      publicClient.readContract({ address: o.idRegistry ?? ID_REGISTRY_ADDRESS, abi: ID_REGISTRY_ABI, functionName: 'idOf', args: [custody] }),
    isValidAuthAddress: async () => false,
  }
}


const profileStr = z.string().max(1024).nullish()

/** The /farcaster routes (`api`) and the relay's channel authenticate (`root`, outside /api/v1). */
export function farcasterRoutes(ctx: ServerCtx, o: FarcasterOptions = {}) {
  const r = router(ctx)
  const root = new Hono<Env>()
  // @farcaster/auth-client loads with the first sign-in to verify (it is the heaviest library of
  // the server's start-up otherwise: about a third of its import time).
  let client: Promise<ReturnType<typeof import('@farcaster/auth-client').createAppClient>> | undefined
  const appClient = () => (client ??= import('@farcaster/auth-client').then((m) => m.createAppClient({ ethereum: farcasterConnector(o) })))
  const enabled = (c: C) => {
    const app = c.get('app')
    if (!methodEnabled(app, 'farcaster')) throw errors.disallowedMethod('farcaster')
    return app
  }
  const channelOf = async (token: string, appId: string): Promise<ChannelRow | undefined> =>
    selectChannel(ctx.store, sha256(token), appId)

  r.post('/farcaster/init', { summary: 'Farcaster: open a sign-in channel', body: z.object({ token: optId(4096) }) }, async (c, { body: b }) => {
    const app = enabled(c)
    if (!c.req.header('authorization')) await requireCaptcha(c, ctx, b.token)
    if (!(await hitLimit(ctx.store, `farcaster-ip:${clientIp(c, ctx.trustProxy)}`, ctx.limits.perIp * 4, ctx.limits.windowS))) {
      throw errors.tooMany()
    }
    // The message names the page's origin; a caller without an Origin header gets the app's first.
    const origin = c.req.header('origin') ?? app.allowedOrigins[0]
    if (!origin || !app.allowedOrigins.includes(origin)) throw errors.invalidData('Origin is not allowed for this app')
    const token = randomToken(24)
    const nonce = randomToken(12).replace(/[^A-Za-z0-9]/g, 'x')
    const domain = new URL(origin).host
    const t = now()
    await insertChannel(ctx.store, { tokenHash: sha256(token), appId: app.id, nonce, domain, siweUri: origin, t, expiresAt: t + FARCASTER_CHANNEL_TTL_S })
    const q = new URLSearchParams({ channelToken: token, nonce, siweUri: origin, domain })
    return c.json({ channel_token: token, connect_uri: `${o.connectUrl ?? DEFAULT_FARCASTER.connectUrl}?${q}`, nonce })
  })

  r.get('/farcaster/status', { summary: 'Farcaster: channel state (header farcaster-channel-token)' }, async (c) => {
    const app = enabled(c)
    const token = c.req.header('farcaster-channel-token')
    if (!token || token.length > 256) throw errors.invalidData('Missing farcaster-channel-token header')
    const ch = await channelOf(token, app.id)
    if (!ch || ch.used_at || ch.expires_at <= now()) throw errors.invalidCredentials('Unknown, used or expired Farcaster channel')
    if (ch.state !== 'completed') return c.json({ state: 'pending', nonce: ch.nonce })
    const p = ch.profile ?? {}
    return c.json({
      state: 'completed',
      nonce: ch.nonce,
      message: ch.message,
      signature: ch.signature,
      fid: Number(ch.fid),
      username: p.username ?? null,
      display_name: p.display_name ?? null,
      bio: p.bio ?? null,
      pfp_url: p.pfp_url ?? null,
    })
  })

  /** Verifies the signed message against the channel; returns the account (nothing written). */
  async function verify(app: AppSettings, b: { channel_token: string; message: string; signature: string; fid: number }) {
    const ch = await channelOf(b.channel_token, app.id)
    if (!ch || ch.used_at || ch.expires_at <= now()) throw errors.invalidCredentials('Unknown, used or expired Farcaster channel')
    if (!isHex(b.signature)) throw errors.invalidCredentials('Invalid signature')
    const verifier = await appClient()
    let res
    try {
      res = await verifier.verifySignInMessage({
        nonce: ch.nonce,
        domain: ch.domain,
        message: b.message,
        signature: b.signature as Hex,
        acceptAuthAddress: false,
      })
    } catch {
      throw errors.invalidCredentials('Invalid Farcaster message')
    }
    if (res.isError) {
      // 'unavailable': the custody lookup (RPC) failed — not the user's input.
      if (res.error?.errCode === 'unavailable') throw unavailable()
      throw errors.invalidCredentials(`Invalid Farcaster message: ${res.error?.message ?? 'verification failed'}`.slice(0, 300))
    }
    if (res.fid !== b.fid) throw errors.invalidCredentials('fid does not match the Farcaster message')
    checkUri(res.data.uri, app.allowedOrigins, 'Farcaster')
    checkIssuedAt(res.data.issuedAt ? new Date(res.data.issuedAt) : undefined, 'Farcaster')
    const p = ch.state === 'completed' && ch.message === b.message ? (ch.profile ?? {}) : {}
    const fid = res.fid
    const acct: AccountInput = {
      type: 'farcaster',
      identifier: String(fid),
      data: {
        fid,
        owner_address: res.data.address,
        username: p.username ?? null,
        display_name: p.display_name ?? null,
        bio: p.bio ?? null,
        profile_picture_url: p.pfp_url ?? null,
        // signer_public_key is not written here: a later login must not clear an approved signer
        // (accountToWire answers null until one is approved).
      },
      transferable: true,
      linkMethod: 'farcaster',
      // The transfer prompt's `account`: the fid (what /farcaster/transfer names as farcaster_id).
      displayName: String(fid),
    }
    return { acct, tokenHash: ch.token_hash }
  }

  /** Uses the channel once, inside the login's transaction (false: replayed or expired). */
  const consume = (tokenHash: string) => (q: Queryable) => useChannel(q, tokenHash, now())

  const sig = {
    channel_token: id(256),
    message: text(4096),
    signature: id(1024),
    fid: z.number().int().positive().max(2 ** 48),
  }

  r.post('/farcaster/authenticate', { summary: 'Farcaster: log in with the signed SIWF message', body: z.object({ ...sig, mode }), auth: 'optional' }, async (c, { body: b }) => {
      const app = enabled(c)
      const { acct, tokenHash } = await verify(app, b)
      const guest = await currentGuest(c, ctx)
      return c.json(await loginWithAccount(ctx, app, acct, { mode: b.mode ?? undefined, guestUserId: guest, verify: consume(tokenHash) }))
    })

  r.post('/farcaster/link', { summary: 'Farcaster: link a Farcaster account', body: z.object(sig), auth: 'link' }, async (c, { body: b, auth }) => {
    const app = enabled(c)
    const { acct, tokenHash } = await verify(app, b)
    // The channel is used first (its own statement); a link that then fails leaves no account.
    if (!(await consume(tokenHash)(ctx.store))) throw errors.invalidCredentials('Unknown, used or expired Farcaster channel')
    return c.json(await linkAccount(ctx, app, auth.userId, acct))
  })

  r.post('/farcaster/unlink', { summary: 'Farcaster: unlink the Farcaster account', body: z.object({ fid: z.number().int().positive().max(2 ** 48) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      return c.json(await unlinkAccount(ctx, c.get('app'), auth.userId, 'farcaster', String(b.fid)))
    })

  r.post('/farcaster/transfer', { summary: 'Farcaster: move a Farcaster account from another user', body: z.object({ nonce: id(128), farcaster_id: z.number().int().positive().max(2 ** 48), farcaster_embedded_address: optId(128) }), auth: 'link' }, async (c, { body: b, auth }) => {
      return c.json(await transferAccount(ctx, c.get('app'), auth.userId, b.nonce, 'farcaster', String(b.farcaster_id)))
    })

  // The relay side of the channel: the Farcaster app posts the signed message here.
  const relayBody = z.object({
    message: text(4096),
    signature: id(1024),
    fid: z.number().int().positive().max(2 ** 48),
    authMethod: z.enum(['custody', 'authAddress']).nullish(),
    username: profileStr,
    displayName: profileStr,
    bio: profileStr,
    pfpUrl: profileStr,
  })
  root.post('/farcaster-relay/v1/channel/authenticate', async (c) => {
    if (o.relayKey && c.req.header('x-farcaster-auth-relay-key') !== o.relayKey) {
      return c.json({ code: 'missing_or_invalid_token', error: 'Invalid relay key' }, 401)
    }
    const token = bearer(c)
    if (!token || token.length > 256) return c.json({ code: 'missing_or_invalid_token', error: 'Missing channel token' }, 401)
    let raw: unknown
    try {
      raw = await c.req.json()
    } catch {
      return c.json({ code: 'invalid_data', error: 'Invalid JSON' }, 400)
    }
    const parsed = relayBody.safeParse(raw)
    if (!parsed.success) return c.json({ code: 'invalid_data', error: 'Invalid channel authentication' }, 400)
    const b = parsed.data
    const profile = { username: b.username ?? null, display_name: b.displayName ?? null, bio: b.bio ?? null, pfp_url: b.pfpUrl ?? null }
    const nonce = await completeChannel(ctx.store, sha256(token), { message: b.message, signature: b.signature, fid: b.fid, profile }, now())
    if (nonce === undefined) return c.json({ code: 'invalid_credentials', error: 'Unknown, completed or expired channel' }, 401)
    return c.json({ state: 'completed', nonce, message: b.message, signature: b.signature, fid: b.fid, ...profile }, 201)
  })
  return { api: r.app, root }
}
