/**
 * delegated-actions:consent sent to the hidden wallet frame: refused. Consent is given on the
 * consent page (/apps/{appId}/embedded-wallets/delegate, frame/consent/main.ts), visible in the
 * host's modal, with a real click on Allow there: a message from the host page alone — which a
 * script injected into the host could send — never delegates a wallet (issue 26).
 */
import '../messages'
import { FrameFailure } from '../context'
import { register } from './registry'

export const CONSENT_ELSEWHERE = 'Offline access is given on the consent page only.'

register('delegated-actions:consent', async () => {
  throw new FrameFailure('invalid_request_arguments', CONSENT_ELSEWHERE)
})
