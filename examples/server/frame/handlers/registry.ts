/**
 * The frame's handler registry: one module per family registers its message types here
 * (`wallets.ts`, `rpc.ts` — wallet-core; `recovery-passcode.ts`, `recovery-cloud.ts` —
 * recovery; `export.ts`, `delegation.ts` — export/delegation) and `handlers/index.ts`
 * imports each module once.
 *
 * Recovery methods other than the built-in `privy` plug in through `registerRecoveryMethod`:
 * a method seals the recovery share when a wallet is created or its recovery is set, and
 * opens it again on recovery. A method without a registered handler is refused with
 * 'Recovery method not supported'.
 */
import type { EntropyIdVerifier, FrameData, FramePayload, FrameRequestType, RecoveryInput, RecoveryMethod } from '../../src/wire/frame'
import { FRAME_TEXTS, FrameFailure, type FrameContext } from '../context'
import type { WalletRoot } from '../keys'

export type Handler<T extends FrameRequestType = FrameRequestType> = (payload: FramePayload<T>, ctx: FrameContext) => Promise<FrameData<T>>

const handlers = new Map<string, Handler<any>>()

export function register<T extends FrameRequestType>(type: T, handler: Handler<T>): void {
  if (handlers.has(type)) throw new Error(`Frame handler '${type}' is registered twice`)
  handlers.set(type, handler)
}

export function handlerFor(type: string): Handler<any> | undefined {
  return handlers.get(type)
}

/** What the server stores for a user-owned recovery method (opaque to the server). */
export interface SealedRecovery {
  /** The sealed recovery share (a `seal.ts` string or the method's own format). */
  recoveryShare: string
  /** Public parameters the method needs to open it again (salt, provider, file id ...). */
  recoveryMeta?: Record<string, unknown>
}

export interface RecoveryMethodHandler {
  /** Seal the recovery share (on create and set-recovery). Runs in the frame; may call the cloud. */
  seal(share: Uint8Array, input: RecoveryInput, ctx: FrameContext & { entropyId: string; accessToken: string }): Promise<SealedRecovery>
  /**
   * Open the recovery share (on recover). `stored` is what the server keeps for the method
   * (from POST /wallets/recovery_share). Wrong password: throw FrameFailure('invalid_recovery_pin', ...).
   */
  open(
    stored: SealedRecovery,
    input: RecoveryInput,
    ctx: FrameContext & { entropyId: string; accessToken: string },
  ): Promise<Uint8Array>
  /**
   * After a seal or an open proved right (the wallet was created, its recovery set, or it was
   * recovered and its root rebuilt): e.g. report the success to the server with a signature by
   * the root. `stored`: what was opened (null after a seal).
   */
  confirmed?(
    root: WalletRoot,
    stored: SealedRecovery | null,
    input: RecoveryInput,
    ctx: FrameContext & { entropyId: string; entropyIdVerifier: EntropyIdVerifier; accessToken: string },
  ): Promise<void>
}

const recoveryMethods = new Map<RecoveryMethod, RecoveryMethodHandler>()

export function registerRecoveryMethod(method: Exclude<RecoveryMethod, 'privy'>, handler: RecoveryMethodHandler): void {
  recoveryMethods.set(method, handler)
}

/** The handler of a user-owned method, or 'Recovery method not supported'. */
export function recoveryMethod(method: string): RecoveryMethodHandler {
  const h = recoveryMethods.get(method as RecoveryMethod)
  if (!h) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.recoveryNotSupported)
  return h
}

/**
 * Runs a method's `confirmed` step once the root is known good. Best effort: the wallet
 * operation already succeeded; a failed report leaves the server's guess counter as it was.
 */
export async function confirmRecovery(
  method: RecoveryMethod,
  root: WalletRoot,
  stored: SealedRecovery | null,
  input: RecoveryInput,
  ctx: FrameContext & { entropyId: string; entropyIdVerifier: EntropyIdVerifier; accessToken: string },
): Promise<void> {
  if (method === 'privy') return
  await recoveryMethods
    .get(method)
    ?.confirmed?.(root, stored, input, ctx)
    .catch(() => {})
}
