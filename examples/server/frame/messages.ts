/**
 * The export and delegation message types, added to the frame protocol by declaration merging
 * (their payloads are defined by the host plugins wallet-export and delegated-actions).
 */
import type { Authed, ConsentPayload, ConsentReply, ExportReply, ExportRequestPayload } from '../src/wire/frame'

/** An MFA method as the frame's MFA messages name it (spec part 2 section 7: sms, totp, passkey). */
export type FrameMfaMethod = 'sms' | 'totp' | 'passkey'

declare module '../../../plugins/embedded-wallet/protocol' {
  interface FrameRequests {
    /** Export page only: reveal the key (or phrase) of the wallet its URL names, inside the page. */
    'wallets:export': { payload: ExportRequestPayload; data: ExportReply }
    /** Consent page only (the hidden frame refuses it): show the policy; on Allow, seal the wallet's key with it to the server. */
    'delegated-actions:consent': { payload: ConsentPayload; data: ConsentReply }
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
  }
}

export {}
