/**
 * smart-wallet:authorize-7702 sent to the hidden wallet frame: refused. An EIP-7702
 * authorisation hands the wallet's address to a contract's code; it is signed on the
 * authorisation page (/apps/{appId}/embedded-wallets/authorize, frame/authorize/main.ts),
 * visible in the host's modal, after a real click on Allow there — never on a message alone.
 */
import '../messages'
import { FrameFailure } from '../context'
import { register } from './registry'

export const AUTHORIZE_ELSEWHERE = 'An EIP-7702 authorisation is signed on the authorisation page only.'

register('smart-wallet:authorize-7702', async () => {
  throw new FrameFailure('invalid_request_arguments', AUTHORIZE_ELSEWHERE)
})
