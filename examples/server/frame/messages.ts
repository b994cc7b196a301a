/**
 * The export and delegation message types, added to the frame protocol by declaration merging
 * (their payloads are defined by the host plugins wallet-export and delegated-actions).
 */
import type { Authed, AuthorizePayload, AuthorizeReply, ConsentPayload, ConsentReply, EntropyRef, ExportReply, ExportRequestPayload } from '../src/wire/frame'

/** An MFA method as the frame's MFA messages name it (spec part 2 section 7: sms, totp, passkey). */
export type FrameMfaMethod = 'sms' | 'totp' | 'passkey'

declare module '../../../plugins/embedded-wallet/protocol' {
  interface FrameRequests {
    /** Export page only: reveal the key (or phrase) of the wallet its URL names, inside the page. */
    'wallets:export': { payload: ExportRequestPayload; data: ExportReply }
    /** Consent page only (the hidden frame refuses it): show the policy; on Allow, seal the wallet's key with it to the server. */
    'delegated-actions:consent': { payload: ConsentPayload; data: ConsentReply }
    /** Authorisation page only (the hidden frame refuses it): show what is delegated; on Allow, sign the EIP-7702 authorisation. */
    'smart-wallet:authorize-7702': { payload: AuthorizePayload; data: AuthorizeReply }
    /**
     * MFA through the frame (spec part 2 section 7; issue 31): the frame calls the user's
     * /api/v1/mfa routes with the access token. A request of any type may carry `mfaMethod` and
     * `mfaCode`: the frame verifies them first (handlers/mfa.ts, the dispatcher in envelope.ts).
     */
    'mfa:verify': { payload: Authed & { mfaMethod?: FrameMfaMethod; mfaCode?: unknown; relyingParty?: string }; data: Record<string, never> }
    'mfa:init-enrollment': {
      payload: Authed & { method: 'totp' | 'sms'; phoneNumber?: string }
      data: { method: 'totp' | 'sms'; secret?: string; authUrl?: string }
    }
    'mfa:submit-enrollment': {
      /** The code as `code`, or as `mfaCode` (the spec's name) when no `mfaMethod` comes with it. */
      payload: Authed & { method: FrameMfaMethod; code?: string; mfaCode?: unknown; mfaMethod?: FrameMfaMethod; phoneNumber?: string; credentialIds?: string[] }
      data: Record<string, never>
    }
    'mfa:unenroll': { payload: Authed & { method: FrameMfaMethod }; data: Record<string, never> }
    /** Forget what this session cached (the unlocked roots): after logout or the last method's removal. */
    'mfa:clear': { payload: { userId?: string }; data: Record<string, never> }
    /**
     * Farcaster signers (issue 30): the Ed25519 key of the user's wallet root for this app
     * (derived inside the frame, handlers/farcaster.ts); the host gets its public key (0x hex) only.
     */
    'farcaster:init-signer': { payload: Authed & EntropyRef; data: { publicKey: string } }
    /** Signs a Farcaster message hash (0x hex, 1 to 64 bytes) with that key: a 64-byte Ed25519 signature (0x hex). */
    'farcaster:sign': { payload: Authed & EntropyRef & { hash: string }; data: { publicKey: string; signature: string } }
  }
}

export {}
