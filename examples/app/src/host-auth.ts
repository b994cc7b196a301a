/**
 * A stand-in for the host app's own auth (for the custom-auth plugin): it "signs in" by asking
 * the reference server's dev issuer (GET /dev/custom-token?user=) for a JWT and keeps it in
 * localStorage, like a real host keeps its session. Development only.
 */
const KEY = 'portico-demo:host-token'
const listeners = new Set<() => void>()

export const hostAuth = {
  token(): string | null {
    try {
      return localStorage.getItem(KEY)
    } catch {
      return null
    }
  },
  /** What customAuth() calls. */
  getCustomAccessToken: async (): Promise<string | null> => hostAuth.token(),
  async signIn(apiUrl: string, user: string) {
    const res = await fetch(`${apiUrl.replace(/\/+$/, '')}/dev/custom-token?user=${encodeURIComponent(user)}`)
    if (!res.ok) throw new Error(`The dev issuer answered ${res.status}`)
    const { token } = (await res.json()) as { token: string }
    localStorage.setItem(KEY, token)
    for (const l of [...listeners]) l()
  },
  signOut() {
    localStorage.removeItem(KEY)
    for (const l of [...listeners]) l()
  },
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  },
}
