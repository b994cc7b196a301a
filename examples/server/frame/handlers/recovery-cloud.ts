/**
 * The `google-drive` and `icloud` recovery methods (issue 14; spec part 2 sections 2, 3, 7).
 * Who holds what:
 * - the user's drive holds the recovery share sealed (AES-256-GCM, seal.ts) with a per-wallet
 *   key K (Google Drive: a file in the app's hidden `appDataFolder`; iCloud: a record in the
 *   private CloudKit database);
 * - the reference server derives K from its secret (POST /recovery/cloud_key; K is never
 *   stored) and keeps the auth share; it never reads the drive (the drive's access token goes
 *   from the OAuth flow to this frame, which calls the drive itself);
 * - the server's database holds only a marker for the method and the file's id.
 * The drive alone has one sealed share: nothing. The server alone has K and the auth share but
 * not the drive's file: nothing. The drive's file and the server together rebuild the key:
 * that is what recovery on a new device does, with the user's drive sign-in.
 */
import type { RecoveryInput } from '../../src/wire/frame'
import { FRAME_TEXTS, FrameFailure, type FrameContext } from '../context'
import { open, seal } from '../seal'
import { registerRecoveryMethod } from './registry'

type Cloud = 'google-drive' | 'icloud'

interface CloudKeyReply {
  key: string
  endpoints: {
    google: { files: string; upload: string } | null
    icloud: { base: string; container: string; environment: string; apiToken: string } | null
  }
}

export const cloudContext = (appId: string, entropyId: string, method: Cloud) => `portico recovery share v1|${appId}|${entropyId.toLowerCase()}|${method}`
export const cloudFileName = (appId: string, entropyId: string) => `portico-wallet-recovery-${appId}-${entropyId.toLowerCase()}.json`
const RECORD_TYPE = 'PorticoRecoveryShare'

const hexBytes = (hex: string) => {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new FrameFailure('error', FRAME_TEXTS.unableToRecover)
  return new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)))
}

async function cloudKey(ctx: FrameContext & { entropyId: string; accessToken: string }, method: Cloud) {
  const reply = await ctx.api<CloudKeyReply>('/recovery/cloud_key', { entropy_id: ctx.entropyId }, ctx.accessToken)
  const raw = hexBytes(reply.key)
  try {
    const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt'])
    return { key, endpoints: reply.endpoints, method }
  } finally {
    raw.fill(0)
  }
}

function driveToken(input: RecoveryInput): string {
  const t = input.recoveryAccessToken
  if (typeof t !== 'string' || !t || t.length > 4096) throw new FrameFailure('invalid_request_arguments', 'The cloud drive sign-in is missing: start again.')
  return t
}

const unreachable = (method: Cloud) => new FrameFailure('error', `${method === 'icloud' ? 'iCloud' : 'Google Drive'} cannot be reached. Please try again.`)

async function call(method: Cloud, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, credentials: 'omit', referrerPolicy: 'no-referrer', signal: AbortSignal.timeout(15_000) })
  } catch {
    throw unreachable(method)
  }
}

// ------------------------------------------------------------------ Google Drive v3

async function googlePut(files: { upload: string }, token: string, name: string, content: string): Promise<string> {
  const boundary = `portico-${crypto.getRandomValues(new Uint32Array(2)).join('')}`
  const body =
    `--${boundary}\r\ncontent-type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify({ name, parents: ['appDataFolder'], mimeType: 'application/json' })}\r\n` +
    `--${boundary}\r\ncontent-type: application/json\r\n\r\n${content}\r\n--${boundary}--`
  const res = await call('google-drive', `${files.upload}?uploadType=multipart&fields=id`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/related; boundary=${boundary}` },
    body,
  })
  if (!res.ok) throw new FrameFailure('error', `Google Drive refused the backup (${res.status}).`)
  const json = (await res.json()) as { id?: unknown }
  if (typeof json.id !== 'string') throw new FrameFailure('error', 'Google Drive refused the backup.')
  return json.id
}

async function googleGet(files: { files: string }, token: string, fileId: unknown, name: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` }
  let id = typeof fileId === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(fileId) ? fileId : null
  if (!id) {
    const q = new URLSearchParams({ spaces: 'appDataFolder', q: `name = '${name.replace(/'/g, "\\'")}' and trashed = false`, fields: 'files(id,name,modifiedTime)', orderBy: 'modifiedTime desc' })
    const list = await call('google-drive', `${files.files}?${q}`, { headers })
    if (!list.ok) throw new FrameFailure('error', FRAME_TEXTS.unableToRecover)
    id = ((await list.json()) as { files?: { id: string }[] }).files?.[0]?.id ?? null
    if (!id) throw new FrameFailure('error', FRAME_TEXTS.unableToRecover)
  }
  const res = await call('google-drive', `${files.files}/${encodeURIComponent(id)}?alt=media`, { headers })
  if (!res.ok) throw new FrameFailure('error', FRAME_TEXTS.unableToRecover)
  return res.text()
}

// ------------------------------------------------------------------ CloudKit web services

function cloudkitUrl(ck: NonNullable<CloudKeyReply['endpoints']['icloud']>, path: string, webAuthToken: string) {
  const u = new URL(`${ck.base}/database/1/${encodeURIComponent(ck.container)}/${ck.environment}/private${path}`)
  u.searchParams.set('ckAPIToken', ck.apiToken)
  u.searchParams.set('ckWebAuthToken', webAuthToken)
  return u.href
}

async function icloudPut(ck: NonNullable<CloudKeyReply['endpoints']['icloud']>, token: string, name: string, content: string) {
  const res = await call('icloud', cloudkitUrl(ck, '/records/modify', token), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operations: [{ operationType: 'forceReplace', record: { recordName: name, recordType: RECORD_TYPE, fields: { share: { value: content } } } }] }),
  })
  const json = (await res.json().catch(() => null)) as { records?: { serverErrorCode?: string }[] } | null
  if (!res.ok || !json?.records?.[0] || json.records[0].serverErrorCode) throw new FrameFailure('error', `iCloud refused the backup (${res.status}).`)
}

async function icloudGet(ck: NonNullable<CloudKeyReply['endpoints']['icloud']>, token: string, name: string): Promise<string> {
  const res = await call('icloud', cloudkitUrl(ck, '/records/lookup', token), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ records: [{ recordName: name }] }),
  })
  const json = (await res.json().catch(() => null)) as { records?: { fields?: { share?: { value?: unknown } } }[] } | null
  const value = json?.records?.[0]?.fields?.share?.value
  if (!res.ok || typeof value !== 'string') throw new FrameFailure('error', FRAME_TEXTS.unableToRecover)
  return value
}

// ------------------------------------------------------------------ the two methods

for (const method of ['google-drive', 'icloud'] as const) {
  registerRecoveryMethod(method, {
    async seal(share, input, ctx) {
      const token = driveToken(input)
      const { key, endpoints } = await cloudKey(ctx, method)
      const sealed = await seal(share, key, cloudContext(ctx.config.appId, ctx.entropyId, method))
      const name = cloudFileName(ctx.config.appId, ctx.entropyId)
      if (method === 'google-drive') {
        if (!endpoints.google) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.recoveryNotSupported)
        const fileId = await googlePut(endpoints.google, token, name, sealed)
        return { recoveryShare: `cloud:${method}`, recoveryMeta: { provider: method, fileId, fileName: name } }
      }
      if (!endpoints.icloud) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.recoveryNotSupported)
      await icloudPut(endpoints.icloud, token, name, sealed)
      return { recoveryShare: `cloud:${method}`, recoveryMeta: { provider: method, recordName: name } }
    },
    async open(stored, input, ctx) {
      const token = driveToken(input)
      const { key, endpoints } = await cloudKey(ctx, method)
      const name = cloudFileName(ctx.config.appId, ctx.entropyId)
      let sealed: string
      if (method === 'google-drive') {
        if (!endpoints.google) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.recoveryNotSupported)
        sealed = await googleGet(endpoints.google, token, stored.recoveryMeta?.fileId, name)
      } else {
        if (!endpoints.icloud) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.recoveryNotSupported)
        sealed = await icloudGet(endpoints.icloud, token, name)
      }
      try {
        return await open(sealed, key, cloudContext(ctx.config.appId, ctx.entropyId, method))
      } catch {
        throw new FrameFailure('error', FRAME_TEXTS.unableToRecover)
      }
    },
  })
}
