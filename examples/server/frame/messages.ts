/**
 * The export and delegation message types, added to the frame protocol by declaration merging
 * (their payloads are defined by the host plugins wallet-export and delegated-actions).
 */
import type { ConsentPayload, ConsentReply, ExportReply, ExportRequestPayload } from '../src/wire/frame'

declare module '../../../plugins/embedded-wallet/protocol' {
  interface FrameRequests {
    /** Export page only: reveal the key (or phrase) of the wallet its URL names, inside the page. */
    'wallets:export': { payload: ExportRequestPayload; data: ExportReply }
    /** Consent page only (the hidden frame refuses it): show the policy; on Allow, seal the wallet's key with it to the server. */
    'delegated-actions:consent': { payload: ConsentPayload; data: ConsentReply }
  }
}

export {}
