/**
 * 'wallet-export' — 'Transfer wallet': the export page of the wallet service in a visible
 * iframe (its own origin: this page cannot read what it shows), and a button that stays in its
 * loading state until the page reports the key is shown. The access token goes to the page by
 * postMessage after its `ready`; the URL carries only public data (addresses, index, theme).
 */
import { useEffect, useState } from 'react'
import { Button, ScreenLayout, useKernel, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { EmbeddedWallet, WalletPageKit } from 'portico/plugins/embedded-wallet'
import { requestExport } from '../calls'
import { exportError, WALLET_EXPORT } from '../ids'
import type { ExportScreenParams } from '../flow'
import { EXPORT_ESCAPE, exportPath } from '../protocol'
import { WALLET_EXPORT_TEXTS } from '../strings'

/** Frame size: the modal's content width, tall enough for the QR code (275), the key and Copy. */
export const EXPORT_FRAME_WIDTH = 312
export const EXPORT_FRAME_HEIGHT = 394

export default function ExportScreen({ params }: ScreenProps<ExportScreenParams>) {
  const kernel = useKernel()
  const screen = useScreen()
  const T = useTexts(WALLET_EXPORT, WALLET_EXPORT_TEXTS)
  const [shown, setShown] = useState(false)
  // The wallet service's origin and the wallet's root (entropy id and verifier) come from the embedded-wallet plugin.
  const ew = kernel.hasPlugin('embedded-wallet') ? kernel.plugin('embedded-wallet') : null
  const origin = ew?.frameOrigin() ?? null
  const root: EmbeddedWallet | null = ew?.wallets().find((w) => w.address === params.address) ?? null

  // The page's iframe and handshake: the embedded-wallet plugin's, loaded on use.
  const [page, setPage] = useState<WalletPageKit | null>(null)

  useEffect(() => {
    if (ew && origin && root) void ew.walletPage().then(setPage, (e) => screen.error(e, { method: WALLET_EXPORT }))
    else screen.error(exportError('EMBEDDED_WALLET_NOT_FOUND', T.mustHaveWallet))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  return (
    <ScreenLayout title={T.title} description={params.phrase ? T.phraseDescription : T.description} className="wallet-export-screen">
      {page && origin && root && (
        <page.WalletPageFrame
          origin={origin}
          path={(look) =>
            exportPath(kernel.config.appId, {
              clientId: kernel.config.clientId,
              primaryAddress: root.entropyId,
              address: params.address,
              walletIndex: params.walletIndex,
              width: EXPORT_FRAME_WIDTH,
              phraseExport: params.phrase,
              ...look,
            })
          }
          run={(target, signal) =>
            requestExport(page, target, origin, async () => {
              const token = await kernel.session.getAccessToken()
              if (!token) throw exportError('MUST_BE_AUTHENTICATED', T.mustBeAuthenticated)
              return { accessToken: token, entropyIdVerifier: root.entropyIdVerifier }
            }, { signal })
          }
          onDone={() => setShown(true)}
          onError={(e) => screen.error(e, { method: WALLET_EXPORT })}
          // Escape inside the export page (its own document: the key never reaches this dialog).
          escape={EXPORT_ESCAPE}
          title={T.frameTitle}
          height={EXPORT_FRAME_HEIGHT}
          allow="clipboard-write"
          className="wallet-export-frame"
          testId="wallet-export-frame"
        />
      )}
      <div className="portico-actions">
        <Button loading={!shown} onClick={() => screen.close()} data-testid="wallet-export-done">
          {T.done}
        </Button>
      </div>
    </ScreenLayout>
  )
}
