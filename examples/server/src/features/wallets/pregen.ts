/**
 * Pre-generated wallets (issue 32; README 'Pre-generated wallets'): what the admin user import
 * takes per user as `embedded_wallet`, made by the operator's import tool
 * (scripts/pregen-wallet.ts), and how it is stored — an HD root whose auth share the server
 * seals at once (before the import's payload is written anywhere) and whose recovery share is
 * the claim box the tool sealed under the user's claim code (`user-passcode`, `claim: true`),
 * which the server cannot open. No device is registered: the user's first wallet frame claims
 * it through recovery with the code, and splits it afresh.
 */
import { z } from 'zod'
import type { ServerCtx } from '../../core/context'
import { emitEvents } from '../../core/events'
import type { Queryable } from '../../core/store'
import { AUTH_SHARE_PURPOSE } from './keys'
import { insertRoot, insertWalletAccount } from './repo'
import { walletAccount, walletAddress } from './service'

const b64share = z.string().regex(/^[A-Za-z0-9+/]{1,64}={0,2}$/, 'Expected base64')

/** As the tool sends it (the raw auth share) … */
const incoming = z.object({
  entropy_id: z.string().max(64),
  entropy_id_verifier: z.literal('ethereum-address-verifier', { message: "Expected 'ethereum-address-verifier'" }),
  auth_share: b64share,
  recovery_method: z.literal('user-passcode', { message: "Expected 'user-passcode'" }),
  recovery_share: z.string().min(1).max(8192),
  recovery_meta: z.record(z.string().max(64), z.union([z.string().max(2048), z.number(), z.boolean(), z.null()])),
  recovery_proof_key: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a base64url ed25519 public key'),
  wallets: z
    .array(z.object({ address: z.string().max(64), chain_type: z.enum(['ethereum', 'solana']), wallet_index: z.literal(0).default(0) }))
    .min(1)
    .max(2),
})

/** … and as the import keeps it (the auth share sealed with the server's key). */
export const pregeneratedWalletSchema = incoming.omit({ auth_share: true }).extend({ auth_share_sealed: z.string().min(1).max(4096) })
export type PregeneratedWallet = z.infer<typeof pregeneratedWalletSchema>

const authContext = (appId: string, entropy: string, share: string) => `${appId}|${entropy.toLowerCase()}|${share}`

/**
 * The users of an import as the server keeps them: each `embedded_wallet.auth_share` sealed
 * (`auth_share_sealed`), nothing else of it kept; an `auth_share_sealed` sent in is dropped
 * (only this server seals). A malformed wallet is left for the batch to refuse with its fields.
 */
export async function sealIncoming(ctx: Pick<ServerCtx, 'keys'>, appId: string, users: unknown[]): Promise<unknown[]> {
  return Promise.all(
    users.map(async (u) => {
      if (!u || typeof u !== 'object' || !('embedded_wallet' in u)) return u
      const w = (u as { embedded_wallet: unknown }).embedded_wallet
      const r = incoming.safeParse(w)
      if (!r.success) return { ...u, embedded_wallet: { invalid: r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ').slice(0, 300) } }
      const { auth_share, ...rest } = r.data
      return { ...u, embedded_wallet: { ...rest, auth_share_sealed: await ctx.keys.seal(authContext(appId, rest.entropy_id, auth_share), AUTH_SHARE_PURPOSE) } }
    }),
  )
}

/** The wallet's accounts as the user's linked accounts, after the same checks as POST /wallets/create; throws a text for the import's error list. */
export function pregeneratedAccounts(w: PregeneratedWallet): { address: string; chain_type: string; wallet_index: number }[] {
  const seen = new Set<string>()
  const wallets = w.wallets.map((x) => {
    if (seen.has(x.chain_type)) throw new Error('embedded_wallet.wallets: at most one wallet per chain type')
    seen.add(x.chain_type)
    return { address: walletAddress(x.chain_type, x.address), chain_type: x.chain_type, wallet_index: 0 }
  })
  const eth = wallets.find((x) => x.chain_type === 'ethereum')
  if (!eth || eth.address.toLowerCase() !== w.entropy_id.toLowerCase()) throw new Error('embedded_wallet.entropy_id: must be the index-0 Ethereum address')
  if (w.recovery_meta.claim !== true) throw new Error('embedded_wallet.recovery_meta: a pre-generated wallet is a claim record (claim: true)')
  return wallets
}

/** The linked-account identifier of a wallet (as insertWalletAccount writes it). */
export const walletIdentifier = (w: { address: string; chain_type: string }) => `${w.chain_type}:${w.chain_type === 'ethereum' ? w.address.toLowerCase() : w.address}`

/** Writes the root and its wallets for a new imported user, and `wallet.created` (pregenerated: true), in the import's transaction. */
export async function insertPregenerated(q: Queryable, appId: string, userId: string, w: PregeneratedWallet, wallets: ReturnType<typeof pregeneratedAccounts>, t: number): Promise<void> {
  const entropyId = wallets.find((x) => x.chain_type === 'ethereum')!.address
  await insertRoot(
    q,
    {
      appId,
      entropyId,
      userId,
      verifier: w.entropy_id_verifier,
      authShare: w.auth_share_sealed,
      recoveryMethod: w.recovery_method,
      recoveryShare: w.recovery_share,
      recoveryMeta: w.recovery_meta,
      imported: false,
      sessionId: null,
      recoveryProofKey: w.recovery_proof_key,
    },
    t,
  )
  const facts = { entropy_id: entropyId, entropy_id_verifier: w.entropy_id_verifier, recovery_method: w.recovery_method }
  // claim_pending: the client's recovery screen asks for the claim code (cleared when the root is split afresh).
  for (const x of wallets) await insertWalletAccount(q, appId, userId, { ...walletAccount(x, facts), claim_pending: true }, t)
  await emitEvents(
    q,
    appId,
    wallets.map((x) => ({
      type: 'wallet.created' as const,
      data: { user_id: userId, wallet: { address: x.address, chain_type: x.chain_type, wallet_index: 0, imported: false, recovery_method: w.recovery_method, pregenerated: true } },
    })),
  )
}
