/**
 * The frame's one adapter for the two envelopes it answers (issue 31), after main.ts's origin
 * and source check (guard.ts), which both go through unchanged:
 *
 * - its own: `{ protocol, id, type, payload }` → `{ protocol, id, data | error }`;
 * - the published client's of this wire contract: a JSON *string* `{ id, event, data }` with
 *   events named `privy:<family>:<action>` → `{ id, event, data | error: { type, message } }`
 *   (the client routes a reply by its `event` and `id`).
 *
 * Both reach the same handlers (handlers/*): a client event is translated to the frame's
 * request types below (`CLIENT_EVENTS`) and its reply to the fields the client reads. The
 * frame, not the host, holds keys either way, with the same device proof on every server call.
 *
 * A request of either envelope may carry `mfaMethod` and `mfaCode` (the client adds them when it
 * retries after `missing_or_invalid_mfa`): the frame verifies them for this session first.
 */
import { FRAME_PROTOCOL, isFrameRequest, type EntropyIdVerifier, type FrameData, type FrameError, type FramePayload, type FrameRequestType } from '../src/wire/frame'
import { FRAME_TEXTS, FrameFailure, type FrameContext } from './context'
import { loadDeviceShare } from './device-store'
import { handlerFor } from './handlers/index'
import { verifyMfa } from './handlers/mfa'
import { STORAGE_TEXTS, isStorageError } from './storage-check'

/** A request as the frame reads it, whichever envelope it came in. */
export type Incoming =
  | { kind: 'frame'; id: string; type: string; payload: Record<string, unknown> }
  | { kind: 'client'; id: string; event: string; payload: Record<string, unknown> }

/** The client's messages are small JSON strings; anything longer or not JSON is ignored. */
const MAX_CLIENT_MESSAGE = 256 * 1024

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {})

/** The request in `data`, or null (not one of the frame's envelopes: ignored without a reply). */
export function readMessage(data: unknown): Incoming | null {
  if (isFrameRequest(data)) return { kind: 'frame', id: data.id, type: data.type, payload: asRecord(data.payload) }
  if (typeof data !== 'string' || data.length > MAX_CLIENT_MESSAGE || data[0] !== '{') return null
  let m: { id?: unknown; event?: unknown; data?: unknown }
  try {
    m = JSON.parse(data)
  } catch {
    return null
  }
  if (!m || typeof m.id !== 'string' || !m.id || typeof m.event !== 'string' || !m.event.startsWith('privy:')) return null
  return { kind: 'client', id: m.id, event: m.event, payload: asRecord(m.data) }
}

/** The reply to `m` in its own envelope. */
export function replyTo(m: Incoming, outcome: { data: unknown } | { error: FrameError }): unknown {
  return m.kind === 'frame' ? { protocol: FRAME_PROTOCOL, id: m.id, ...outcome } : { id: m.id, event: m.event, ...outcome }
}

/** What a failure becomes on the wire. */
export function toFrameError(err: unknown): FrameError {
  if (err instanceof FrameFailure) return { type: err.type, message: err.message }
  if (isStorageError(err)) return { type: 'storage_unavailable', message: STORAGE_TEXTS.unavailable }
  return { type: err instanceof RangeError ? 'invalid_request_arguments' : 'error', message: (err as Error)?.message || 'An error has occurred, please try again.' }
}

/** Runs a frame request type through its registered handler. */
export function call<T extends FrameRequestType>(type: T, payload: FramePayload<T>, ctx: FrameContext): Promise<FrameData<T>> {
  const handler = handlerFor(type)
  if (!handler) throw new FrameFailure('invalid_request_arguments', `${FRAME_TEXTS.unknownType}: ${String(type)}`)
  return handler(payload as never, ctx)
}

// ------------------------------------------------------------------------------------------
// New devices of a user without MFA (issue 26's step-up) for the client: its only prompt for
// a code is its MFA prompt, so the frame asks through `missing_or_invalid_mfa`, naming where
// the code went, and takes the code the client then sends as `mfaCode` for the step-up.

/** Roots (entropy ids) of this page session whose step-up code went out by e-mail or SMS. */
const stepUpCodeSent = new Set<string>()
const STEP_UP_TEXTS = {
  codeSent: (to: string) => `New device: enter the code sent to ${to} to use your wallet here.`,
} as const

/** Verifies what the request carries (an MFA code, or the step-up code it was asked for) before the request runs. */
async function verifyFirst(m: Incoming, ctx: FrameContext): Promise<void> {
  const p = m.payload
  // A verification comes as mfaMethod + mfaCode (the client's MFA retry); an mfaCode alone is the
  // spec's name for an enrolment code (mfa submit-enrollment), which that request uses itself.
  if (p.mfaCode === undefined || p.mfaCode === null || p.mfaMethod === undefined || p.mfaMethod === null) return
  const type = m.kind === 'frame' ? m.type : m.event
  if (type === 'mfa:verify' || type === 'privy:mfa:verify') return // that request verifies itself
  const accessToken = String(p.accessToken ?? '')
  const entropyId = typeof p.entropyId === 'string' ? p.entropyId.toLowerCase() : null
  if (entropyId && stepUpCodeSent.has(entropyId)) {
    await call('wallets:step-up-verify', { accessToken, entropyId: p.entropyId as string, entropyIdVerifier: p.entropyIdVerifier as EntropyIdVerifier, code: String(p.mfaCode) }, ctx).catch((e) => {
      // A wrong code: the client asks again (it counts its attempts; the server voids the code after five).
      if (e instanceof FrameFailure && (e.code === 'invalid_credentials' || e.type === 'invalid_request_arguments')) throw new FrameFailure('missing_or_invalid_mfa', e.message)
      // A void or expired code: the next recovery starts a new step-up.
      stepUpCodeSent.delete(entropyId)
      throw e
    })
    stepUpCodeSent.delete(entropyId)
    return
  }
  await verifyMfa(ctx, accessToken, p.mfaMethod, p.mfaCode, p.relyingParty)
}

/** Handles one request of either envelope: verifies what it carries, then runs it. */
export async function dispatch(m: Incoming, ctx: FrameContext): Promise<unknown> {
  if (m.kind === 'frame') {
    const handler = handlerFor(m.type)
    if (!handler) throw new FrameFailure('invalid_request_arguments', `${FRAME_TEXTS.unknownType}: ${String(m.type)}`)
    await verifyFirst(m, ctx)
    return handler(m.payload as never, ctx)
  }
  const translate = CLIENT_EVENTS[m.event]
  if (!translate) throw new FrameFailure('invalid_request_arguments', `${FRAME_TEXTS.unknownType}: ${m.event}`)
  await verifyFirst(m, ctx)
  return translate(m.payload, ctx)
}

// ------------------------------------------------------------------------------------------
// The client's events → the frame's request types, and the replies it reads.

type ClientData = Record<string, any>
const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const verifier = (v: unknown): EntropyIdVerifier => (v === 'solana-address-verifier' ? 'solana-address-verifier' : 'ethereum-address-verifier')
const ref = (d: ClientData) => ({ accessToken: str(d.accessToken), entropyId: str(d.entropyId), entropyIdVerifier: verifier(d.entropyIdVerifier) })
const recoveryInput = (d: ClientData) => ({
  recoveryPassword: typeof d.recoveryPassword === 'string' ? d.recoveryPassword : undefined,
  recoveryAccessToken: typeof d.recoveryAccessToken === 'string' ? d.recoveryAccessToken : undefined,
})

/** The recovery of a root on this device, with the new device's step-up (issue 26) when the server asks for one. */
async function recoverOnDevice(d: ClientData, ctx: FrameContext) {
  const p = { ...ref(d), ...recoveryInput(d), recoveryMethod: undefined as never }
  try {
    return await call('wallets:recover', p, ctx)
  } catch (e) {
    if (!(e instanceof FrameFailure) || e.type !== 'device_step_up_required') throw e
  }
  const start = await call('wallets:step-up-start', ref(d), ctx)
  if (start.method !== 'mfa') {
    stepUpCodeSent.add(p.entropyId.toLowerCase())
    throw new FrameFailure('missing_or_invalid_mfa', STEP_UP_TEXTS.codeSent(start.to))
  }
  // With MFA enrolled the step-up is a fresh MFA verification: missing, the client asks for one.
  await call('wallets:step-up-verify', ref(d), ctx)
  return call('wallets:recover', p, ctx)
}

export const CLIENT_EVENTS: Record<string, (d: ClientData, ctx: FrameContext) => Promise<unknown>> = {
  'privy:iframe:ready': async (_d, ctx) => {
    await call('ready', {}, ctx)
    return {}
  },
  /** The Ethereum wallet at index 0: a new root, or (solanaAddress) on the user's Solana root. */
  'privy:wallet:create': async (d, ctx) => {
    if (typeof d.solanaAddress === 'string' && d.solanaAddress) {
      const r = await call('wallets:add', { accessToken: str(d.accessToken), entropyId: d.solanaAddress, entropyIdVerifier: 'solana-address-verifier', chainType: 'ethereum', walletIndex: 0 }, ctx)
      return { address: r.wallet.address }
    }
    const r = await call('wallets:create', { accessToken: str(d.accessToken), chainTypes: ['ethereum'], recoveryMethod: d.recoveryMethod, ...recoveryInput(d) }, ctx)
    return { address: r.wallets[0].address }
  },
  /** A new root with the index-0 wallet of each chain type asked for (chainType or chainTypes; default Ethereum). */
  'privy:wallets:create': async (d, ctx) => {
    const chainTypes = Array.isArray(d.chainTypes) ? d.chainTypes : [d.chainType ?? 'ethereum']
    const r = await call('wallets:create', { accessToken: str(d.accessToken), chainTypes, recoveryMethod: d.recoveryMethod, ...recoveryInput(d) }, ctx)
    return { address: r.wallets[0].address }
  },
  /** The Solana wallet at index 0: on the user's Ethereum root (ethereumAddress), or a new root. */
  'privy:solana-wallet:create': async (d, ctx) => {
    const on = typeof d.ethereumAddress === 'string' && d.ethereumAddress ? { entropyId: d.ethereumAddress, entropyIdVerifier: 'ethereum-address-verifier' as const } : {}
    const r = await call('solana-wallet:create', { accessToken: str(d.accessToken), ...on }, ctx)
    return { publicKey: r.wallet.address }
  },
  'privy:wallets:add': async (d, ctx) => {
    const r = await call('wallets:add', { ...ref(d), chainType: d.chainType, walletIndex: d.hdWalletIndex ?? d.walletIndex }, ctx)
    return { address: r.wallet.address }
  },
  'privy:wallets:import': async (d, ctx) => {
    const r = await call('wallets:import', { accessToken: str(d.accessToken), chainType: d.chainType, privateKey: str(d.privateKey), recoveryMethod: d.recoveryMethod, ...recoveryInput(d) }, ctx)
    return { address: r.wallet.address }
  },
  /**
   * Is the root on this device? The client asks before every use and recovers on
   * `wallet_not_on_device`; the root itself is unlocked by the request that uses it (behind the
   * MFA gate, which the client's connect does not pass through).
   */
  'privy:wallets:connect': async (d, ctx) => {
    const r = ref(d)
    if (!r.accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
    if (!r.entropyId) throw new FrameFailure('invalid_request_arguments', 'entropyId: Required')
    const share = await loadDeviceShare(ctx.config.appId, r.entropyId)
    if (!share) throw new FrameFailure('wallet_not_on_device', FRAME_TEXTS.notOnDevice)
    share.fill(0)
    return { entropyId: r.entropyId }
  },
  'privy:wallets:recover': async (d, ctx) => {
    const r = await recoverOnDevice(d, ctx)
    return { entropyId: r.entropyId }
  },
  'privy:wallets:set-recovery': async (d, ctx) => {
    const r = await call('wallets:set-recovery', { ...ref(d), ...recoveryInput(d), recoveryMethod: d.recoveryMethod }, ctx)
    return { entropyId: r.entropyId, entropyIdVerifier: r.entropyIdVerifier, recoveryMethod: r.recoveryMethod }
  },
  'privy:wallets:rpc': async (d, ctx) => {
    const chainType = d.chainType
    const r = await call('wallets:rpc', { ...ref(d), hdWalletIndex: d.hdWalletIndex, chainType, request: d.request, requesterAppId: d.requesterAppId } as never, ctx)
    return { chainType, response: r }
  },
  'privy:mfa:verify': (d, ctx) => call('mfa:verify', { accessToken: str(d.accessToken), mfaMethod: d.mfaMethod, mfaCode: d.mfaCode, relyingParty: d.relyingParty }, ctx),
  'privy:mfa:init-enrollment': (d, ctx) => call('mfa:init-enrollment', { accessToken: str(d.accessToken), method: d.method, phoneNumber: d.phoneNumber }, ctx),
  'privy:mfa:submit-enrollment': (d, ctx) =>
    call('mfa:submit-enrollment', { accessToken: str(d.accessToken), method: d.method, code: d.code, mfaCode: d.mfaCode, mfaMethod: d.mfaMethod, phoneNumber: d.phoneNumber, credentialIds: d.credentialIds }, ctx),
  'privy:mfa:unenroll': (d, ctx) => call('mfa:unenroll', { accessToken: str(d.accessToken), method: d.method }, ctx),
  'privy:mfa:clear': (d, ctx) => call('mfa:clear', { userId: typeof d.userId === 'string' ? d.userId : undefined }, ctx),
}
