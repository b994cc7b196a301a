/**
 * Building a cast (loaded on first use of `makeCastAdd`): @farcaster/core encodes the
 * MessageData and hashes it (BLAKE3, 20 bytes); the hash is signed by the signer's key in the
 * wallet frame; @farcaster/core assembles the Message and validates it (hash, Ed25519
 * signature) before it is handed out. Submit `Message.encode(message).finish()` to a hub.
 */
import { CastAddBody as CastAddBodyCodec, FarcasterNetwork, makeCastAddData, makeMessageHash, makeMessageWithSignature, type Message } from '@farcaster/core'
import { PorticoError } from 'portico'

/** A cast: its text, and optionally mentions, embeds, a parent cast or URL (the rest of CastAddBody defaults). */
export interface CastAddBody {
  text: string
  mentions?: number[]
  mentionsPositions?: number[]
  embeds?: ({ url: string } | { castId: { fid: number; hash: Uint8Array } })[]
  parentCastId?: { fid: number; hash: Uint8Array }
  parentUrl?: string
}

export type FarcasterNetworkName = 'mainnet' | 'testnet' | 'devnet'

const NETWORKS: Record<FarcasterNetworkName, FarcasterNetwork> = { mainnet: FarcasterNetwork.MAINNET, testnet: FarcasterNetwork.TESTNET, devnet: FarcasterNetwork.DEVNET }

const failed = (what: string, e: { message?: string }) => new PorticoError('invalid_data', `${what}: ${e.message ?? 'invalid'}`, { kind: 'client_error' })

export async function buildCastAdd(
  body: CastAddBody,
  o: { fid: number; network: FarcasterNetworkName },
  signer: { publicKey: Uint8Array; sign(hash: Uint8Array): Promise<Uint8Array> },
): Promise<Message> {
  const full = CastAddBodyCodec.create({ embedsDeprecated: [], mentions: [], mentionsPositions: [], embeds: [], ...body })
  const data = await makeCastAddData(full, { fid: o.fid, network: NETWORKS[o.network] ?? FarcasterNetwork.MAINNET })
  if (data.isErr()) throw failed('Invalid cast', data.error)
  const hash = await makeMessageHash(data.value)
  if (hash.isErr()) throw failed('Invalid cast', hash.error)
  const signature = await signer.sign(hash.value)
  // 1 = SignatureScheme.ED25519; the result is validated (hash and signature) by @farcaster/core.
  const message = await makeMessageWithSignature(data.value, { signer: signer.publicKey, signature, signatureScheme: 1 })
  if (message.isErr()) throw failed('Invalid signed cast', message.error)
  return message.value
}
