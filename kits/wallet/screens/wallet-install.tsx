/**
 * Install-wallet screen (spec part 1 section 2): a wallet the app lists (`walletList`) is not
 * in this browser. A button to get it and a learn-more link. Params: `{ brand }`.
 */
import { ScreenLayout, useKernel, useScreen, useTexts } from 'portico/ui/screens'
import { formatText } from 'portico'
import { brandLinks } from '../brand-links'
import { brandName, walletBrand } from '../base'
import { WALLET_TEXTS } from '../strings'
import { WalletLogo } from './wallet-logo'

export default function WalletInstallScreen() {
  const kernel = useKernel()
  const screen = useScreen<{ brand?: string }>()
  const S = useTexts('wallet', WALLET_TEXTS)
  const brand = walletBrand(screen.params.brand)
  const wallet = brand ? brandName(brand, kernel.config.name) : S.methodLabel
  return (
    <ScreenLayout
      title={formatText(S.installTitle, { wallet })}
      description={formatText(S.installDetail, { wallet })}
      icon={<WalletLogo brand={brand?.id} size={48} />}
    >
      <div className="portico-actions" data-portico-wallet-install={brand?.id ?? ''}>
        {brand && brandLinks(brand.id).installUrl ? (
          <a className="portico-button" data-variant="primary" data-full="" href={brandLinks(brand.id).installUrl} target="_blank" rel="noopener noreferrer">
            <span className="portico-button-label">{formatText(S.installButton, { wallet })}</span>
          </a>
        ) : null}
        <p className="portico-links">
          <a href={S.learnMoreUrl} target="_blank" rel="noopener noreferrer">
            {S.learnMore}
          </a>
        </p>
      </div>
    </ScreenLayout>
  )
}
