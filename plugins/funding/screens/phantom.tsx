/** 'funding-phantom': 'Create a Phantom wallet' — how to get a Solana wallet, with a reload button. */
import { Button, ScreenLayout, useTexts, type ScreenProps } from 'portico/ui/screens'
import { FUNDING } from '../errors'
import { FUNDING_TEXTS } from '../strings'

export const PHANTOM_DOWNLOAD_URL = 'https://phantom.app/download'

export default function FundingPhantomScreen(_: ScreenProps) {
  const T = useTexts(FUNDING, FUNDING_TEXTS)
  return (
    <ScreenLayout title={T.phantomTitle} description={T.phantomDescription}>
      <ol className="portico-help">
        {T.phantomSteps.split('|').map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <a className="portico-button" data-variant="secondary" href={PHANTOM_DOWNLOAD_URL} target="_blank" rel="noopener noreferrer">
        {T.phantomInstall}
      </a>
      <Button onClick={() => window.location.reload()}>{T.reload}</Button>
    </ScreenLayout>
  )
}
