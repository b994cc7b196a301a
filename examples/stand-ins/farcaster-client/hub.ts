/**
 * A Farcaster hub stand-in (tests and the demo): `POST /v1/submitMessage` with a protobuf
 * Message (application/octet-stream), as a hub's HTTP API takes it. @farcaster/core decodes and
 * validates it (the BLAKE3 hash of its data, the Ed25519 signature by `signer`, the body); the
 * signer must be a key approved for the message's fid (what the KeyRegistry would hold: the
 * client API stand-in's approved signed key requests). Accepted messages are kept in memory;
 * `GET /v1/castsByFid?fid=` lists them (JSON, as a hub answers).
 */
import { Hono } from 'hono'
import { Message, validations, type Message as MessageT } from '@farcaster/core'
import type { Hex } from 'viem'

const toHex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`

export function createHubStandIn(o: { approvedKeys(fid: number): Hex[] }) {
  const app = new Hono()
  const casts = new Map<number, MessageT[]>()
  const refuse = (details: string, status: 400 = 400) => ({ body: { errCode: 'bad_request.validation_failure', presentable: false, name: 'HubError', code: status, details }, status })

  app.post('/v1/submitMessage', async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer())
    let message: MessageT
    try {
      message = Message.decode(bytes)
    } catch {
      const r = refuse('invalid message encoding')
      return c.json(r.body, r.status)
    }
    const valid = await validations.validateMessage(message)
    if (valid.isErr()) {
      const r = refuse(valid.error.message)
      return c.json(r.body, r.status)
    }
    const fid = message.data?.fid ?? 0
    const signer = toHex(message.signer).toLowerCase()
    if (!o.approvedKeys(fid).map((k) => k.toLowerCase()).includes(signer)) {
      const r = refuse(`invalid signer: ${signer} is not an approved key of fid ${fid}`)
      return c.json(r.body, r.status)
    }
    casts.set(fid, [...(casts.get(fid) ?? []), message])
    return c.json(Message.toJSON(message) as Record<string, unknown>)
  })

  app.get('/v1/castsByFid', (c) => {
    const fid = Number(c.req.query('fid'))
    return c.json({ messages: (casts.get(fid) ?? []).map((m) => Message.toJSON(m)) })
  })
  return app
}
