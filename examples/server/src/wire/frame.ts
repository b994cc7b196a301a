/**
 * The wallet frame's protocol (spec part 2 section 7) and the payloads of its pages (export,
 * delegation consent), as the client's plugins define them: the one door through which the
 * frame and the server reach the client's protocol files. What comes through is the wire:
 * message types, the protocol's constants, the envelope check, the derivation paths, the
 * password rule and the delegation policy's normal form (both sides must agree on each to the
 * letter). A test (test/layout.test.ts) holds that the frame imports nothing else of the client.
 */
export { FRAME_PROTOCOL, ethereumPath, isFrameRequest, solanaPath } from '../../../../plugins/embedded-wallet/protocol'
export type {
  Authed,
  ChainType,
  EntropyIdVerifier,
  EntropyRef,
  FrameData,
  FrameError,
  FrameErrorType,
  FramePayload,
  FrameReplyMessage,
  FrameRequestType,
  FrameStorage,
  FrameTransactionRequest,
  FrameWallet,
  RecoveryInput,
  RecoveryMethod,
  RpcData,
  StepUpStart,
  WalletDevice,
} from '../../../../plugins/embedded-wallet/protocol'
export { isValidPassword, passwordError } from '../../../../plugins/embedded-wallet/recovery/password'
export { CONSENT_ESCAPE, CONSENT_REQUEST, CONSENT_RESIZE, type ConsentPayload, type ConsentReply } from '../../../../plugins/delegated-actions/protocol'
export { PolicyError, describePolicy, normalizePolicy, type DelegationPolicy } from '../../../../plugins/delegated-actions/policy'
export { COPIED_MS, EXPORT_ESCAPE, EXPORT_QR_SIZE, type ExportReply, type ExportRequestPayload } from '../../../../plugins/wallet-export/protocol'
