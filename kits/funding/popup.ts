/**
 * The on-ramp popup (spec part 2 section 4: 440x680). It opens blank inside the user's click
 * (browsers block later ones) and goes to the provider once its URL is known; a blocked popup
 * is 'Unable to initialize flow'.
 */
export const ONRAMP_POPUP = { width: 440, height: 680 }

export interface FundingPopup {
  readonly closed: boolean
  close(): void
  location: { href: string } | Location
}

export function openFundingPopup(host: Pick<Window, 'open'> & { screenX?: number; screenY?: number; outerWidth?: number; outerHeight?: number } = window): FundingPopup | null {
  const { width, height } = ONRAMP_POPUP
  const left = Math.max(0, (host.screenX ?? 0) + ((host.outerWidth ?? width) - width) / 2)
  const top = Math.max(0, (host.screenY ?? 0) + ((host.outerHeight ?? height) - height) / 2)
  try {
    return host.open('about:blank', 'portico-funding', `popup=yes,width=${width},height=${height},left=${Math.round(left)},top=${Math.round(top)}`) as FundingPopup | null
  } catch {
    return null
  }
}
