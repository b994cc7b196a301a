/** The page's host and origin: the domain and URI of sign-in messages (SIWE and SIWS). */
export function pageOrigin(): { host: string; origin: string } {
  const loc = (globalThis as { location?: Location }).location
  if (!loc?.host) throw new Error('Sign-in with a wallet needs a page location (domain and URI of the message).')
  return { host: loc.host, origin: loc.origin }
}
