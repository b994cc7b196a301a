/** The page's host and origin: the domain and URI of sign-in messages (SIWE and SIWS). */
export function pageOrigin(): { host: string; origin: string } {
  const loc = (globalThis as { location?: Location }).location
  if (!loc?.host) throw new Error('Sign-in with a wallet needs a page location (domain and URI of the message).')
  return { host: loc.host, origin: loc.origin }
}

/** Leave the page for a URL (a mobile wallet's deep link). */
export function navigateTo(url: string): void {
  const loc = (globalThis as { location?: Location }).location
  if (!loc) throw new Error('Opening a wallet app needs a page location.')
  loc.assign(url)
}

/** The page address without the given query parameters (the return address of a deep link). */
export function pageUrl(extra: Record<string, string> = {}, drop: readonly string[] = []): string {
  const loc = (globalThis as { location?: Location }).location
  if (!loc?.href) throw new Error('A wallet deep link needs a page location.')
  const u = new URL(loc.href)
  for (const p of drop) u.searchParams.delete(p)
  for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v)
  return u.toString()
}
