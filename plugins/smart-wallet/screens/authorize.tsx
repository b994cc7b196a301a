/**
 * 'smart-wallet-authorize' — 'Upgrade your wallet' (EIP-7702): the wallet service's
 * authorisation page in a visible iframe (its own origin). The page shows the app's name, the
 * wallet, the contract it would delegate to (by name) and the chain, with Allow and Not now;
 * only a click on Allow THERE signs the authorisation (this page cannot click for the user, and
 * no message alone signs). The screen closes with the signed authorisation, or `declined` (Not
 * now, ×, Escape); a failure shows here and the screen closes after 2.5 s.
 */
import { useEffect, useRef, useState } from 'react'
import { toPorticoError } from 'portico'
import { ScreenLayout, StatusIcon, useKernel, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { EmbeddedWalletApi, WalletPageKit } from 'portico/plugins/embedded-wallet'
import { AUTHORIZE_ESCAPE, AUTHORIZE_REQUEST, AUTHORIZE_RESIZE, type AuthorizePayload, type AuthorizeReply } from '../protocol'
import { SMART_WALLET_TEXTS } from '../strings'

export const AUTHORIZE_SCREEN = 'smart-wallet-authorize'
const CLOSE_MS = 2500
const FRAME_HEIGHT = 360
const MIN_HEIGHT = 160
const MAX_HEIGHT = 560

export interface AuthorizeScreenParams extends Record<string, unknown> {
  address: string
  chainId: number
  contractAddress: string
  nonce: number
}

/** How the screen ended (its `close(value)`). */
export type AuthorizeOutcome = AuthorizeReply | { error: unknown }

export default function AuthorizeScreen({ params }: ScreenProps<AuthorizeScreenParams>) {
  const kernel = useKernel()
  const screen = useScreen()
  const T = useTexts('smart-wallet', SMART_WALLET_TEXTS)
  const outcome = useRef<AuthorizeOutcome | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [height, setHeight] = useState(FRAME_HEIGHT)
  const ew: EmbeddedWalletApi | null = kernel.hasPlugin('embedded-wallet') ? kernel.plugin('embedded-wallet') : null
  const origin = ew?.frameOrigin() ?? null
  const [page, setPage] = useState<WalletPageKit | null>(null)

  const failed = (e: unknown, message = toPorticoError(e).message) => {
    outcome.current = { error: e }
    setFailure(message)
  }

  useEffect(() => {
    if (ew && origin) void ew.walletPage().then(setPage, failed)
    else failed(new Error(T.noWalletFrame), T.noWalletFrame)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [origin])

  useEffect(() => {
    if (failure === null) return
    const t = setTimeout(() => screen.close(outcome.current), CLOSE_MS)
    return () => clearTimeout(t)
  }, [failure, screen])

  if (failure !== null) {
    return <ScreenLayout title={T.authorizeFailed} description={failure} icon={<StatusIcon status="error" />} back={false} className="smart-wallet-authorize-result" />
  }
  const wallet = ew?.ethereumWallets().find((w) => w.address.toLowerCase() === params.address.toLowerCase())
  return (
    <ScreenLayout title={T.authorizeTitle} className="smart-wallet-authorize" back={false}>
      {page && origin && (
        <page.WalletPageFrame
          origin={origin}
          path={(look) => page.pagePath(kernel.config.appId, 'authorize', look)}
          run={(target, signal) =>
            page.requestPage<AuthorizeReply>(
              target,
              origin,
              {
                type: AUTHORIZE_REQUEST,
                provider: 'smart-wallet',
                codes: { missing_or_invalid_mfa: 'MISSING_MFA_CREDENTIALS', invalid_request_arguments: 'invalid_data' },
                payload: async (): Promise<AuthorizePayload> => {
                  const token = await kernel.session.getAccessToken()
                  if (!token || !wallet) throw new Error(T.noEmbeddedWallet)
                  return {
                    accessToken: token,
                    entropyId: wallet.entropyId,
                    entropyIdVerifier: wallet.entropyIdVerifier,
                    address: wallet.address,
                    chainId: params.chainId,
                    contractAddress: params.contractAddress,
                    nonce: params.nonce,
                  }
                },
              },
              { signal },
            )
          }
          onDone={(r) => screen.close(r)}
          onError={(e) => failed(e)}
          escape={AUTHORIZE_ESCAPE}
          resize={{ type: AUTHORIZE_RESIZE, on: (h) => setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(h)))) }}
          title={T.authorizeFrameTitle}
          height={height}
          tabIndex={0}
          className="smart-wallet-authorize-frame"
          testId="smart-wallet-authorize-frame"
        />
      )}
    </ScreenLayout>
  )
}
