import type { PasskeyAccount } from 'portico'

/**
 * A passkey's display title (part 1 section 3): authenticator name and browser, else browser
 * and OS, else 'Unknown device'. The server names the authenticator from its AAGUID and the
 * browser and OS from the registering request. `unknownDevice`: the plugin's text
 * (`texts().unknownDevice`, with the app's override).
 */
export function passkeyTitle(
  p: Pick<PasskeyAccount, 'authenticatorName' | 'createdWithBrowser' | 'createdWithOs'>,
  unknownDevice: string,
): string {
  if (p.authenticatorName) return p.createdWithBrowser ? `${p.authenticatorName} (${p.createdWithBrowser})` : p.authenticatorName
  if (p.createdWithBrowser && p.createdWithOs) return `${p.createdWithBrowser} on ${p.createdWithOs}`
  if (p.createdWithBrowser) return p.createdWithBrowser
  return unknownDevice
}
