/**
 * The wallet frame's protocol (spec part 2 section 7) and the payloads of its pages (export,
 * delegation consent): the one door through which the frame and the server reach the client's
 * protocol files. Of the embedded wallet's protocol only the wire *types* come through
 * (`export type`); its runtime half (the protocol mark, the envelope check, the derivation
 * paths, the password rule) is the server's own, in frame-protocol.ts, proved equal to the
 * client's by test/frame-protocol.test.ts. A test (test/layout.test.ts) holds that the frame
 * imports nothing else of the client.
 */
export { FRAME_PROTOCOL, ethereumPath, isFrameRequest, isValidPassword, passwordError, solanaPath } from './frame-protocol'
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
export { CONSENT_ESCAPE, CONSENT_REQUEST, CONSENT_RESIZE, type ConsentPayload, type ConsentReply } from '../../../../plugins/delegated-actions/protocol'
export { PolicyError, describePolicy, normalizePolicy, type DelegationPolicy } from '../../../../plugins/delegated-actions/policy'
export { AUTHORIZE_ESCAPE, AUTHORIZE_REQUEST, AUTHORIZE_RESIZE, EIP7702_IMPLEMENTATIONS, type AuthorizePayload, type AuthorizeReply, type WireAuthorization } from '../../../../plugins/smart-wallet/protocol'
export { COPIED_MS, EXPORT_ESCAPE, EXPORT_QR_SIZE, type ExportReply, type ExportRequestPayload } from '../../../../plugins/wallet-export/protocol'
