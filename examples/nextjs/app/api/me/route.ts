// A Next.js route handler verifying the Portico access token (`Authorization: Bearer …`) with
// portico/server: the signature against the server's public keys (fetched once and cached),
// the issuer, this app as the audience, the expiry. No call to Portico per request.
import { PorticoServerError, verifyAccessToken } from 'portico/server'

const portico = {
  appId: process.env.PORTICO_APP_ID ?? process.env.NEXT_PUBLIC_PORTICO_APP_ID ?? 'portico-demo-app-00000001',
  apiUrl: process.env.PORTICO_API_URL ?? process.env.NEXT_PUBLIC_PORTICO_API_URL ?? 'http://127.0.0.1:8787',
}

export async function GET(request: Request) {
  try {
    const token = request.headers.get('authorization')?.replace(/^Bearer /i, '') ?? ''
    const { userId, sessionId } = await verifyAccessToken(token, portico)
    return Response.json({ id: userId, sessionId })
  } catch (err) {
    if (err instanceof PorticoServerError) return Response.json({ error: err.code }, { status: 401 })
    throw err
  }
}
