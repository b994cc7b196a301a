/**
 * wallets:step-up-start / wallets:step-up-verify / wallets:revoke-device (issue 26): a new
 * device confirms it is the user (a code to the verified e-mail or phone, or a fresh MFA
 * verification) before it may recover the root; a registered device removes another one.
 * Every call carries this frame's device proof (context.ts createApi), so the grant the server
 * mints is for this device, session and root only.
 */
import type { StepUpStart, WalletDevice } from '../../src/wire/frame'
import { FRAME_TEXTS, FrameFailure } from '../context'
import { register } from './registry'
import type { WireWalletDevice } from '../../src/wire/custody'


export const toDevice = (d: WireWalletDevice): WalletDevice => ({
  id: d.id,
  label: d.label,
  createdAt: d.created_at,
  lastUsedAt: d.last_used_at,
  sessionOnly: d.session_only,
  current: d.current,
})

const needToken = (t: unknown) => {
  if (typeof t !== 'string' || !t) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
}
const needRoot = (entropyId: unknown) => {
  if (typeof entropyId !== 'string' || !entropyId) throw new FrameFailure('invalid_request_arguments', 'entropyId: Required')
}

register('wallets:step-up-start', async (p, ctx) => {
  needToken(p.accessToken)
  needRoot(p.entropyId)
  const r = await ctx.api<{ method: 'email' | 'sms' | 'mfa'; to?: string }>('/wallets/step_up/start', { entropy_id: p.entropyId }, p.accessToken)
  const out: StepUpStart = r.method === 'mfa' ? { method: 'mfa' } : { method: r.method, to: r.to ?? '' }
  return out
})

register('wallets:step-up-verify', async (p, ctx) => {
  needToken(p.accessToken)
  needRoot(p.entropyId)
  if (p.code !== undefined && (typeof p.code !== 'string' || !/^\s*\d[\d\s]{4,10}\d\s*$/.test(p.code))) {
    throw new FrameFailure('invalid_request_arguments', 'Invalid code. Please try again.')
  }
  await ctx.api('/wallets/step_up/verify', { entropy_id: p.entropyId, ...(p.code ? { code: p.code.replace(/\s+/g, '') } : {}) }, p.accessToken)
  return { verified: true as const }
})

register('wallets:revoke-device', async (p, ctx) => {
  needToken(p.accessToken)
  if (typeof p.deviceId !== 'string' || !p.deviceId) throw new FrameFailure('invalid_request_arguments', 'deviceId: Required')
  const r = await ctx.api<{ devices: WireWalletDevice[] }>('/wallets/devices/revoke', { device_id: p.deviceId }, p.accessToken)
  return { devices: r.devices.map(toDevice) }
})
