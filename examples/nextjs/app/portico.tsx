'use client'
// The provider lives in a client component. On the server it renders the loading state; in the
// browser the kernel loads the app's settings and the session, then shows 'Log in'.
import { useState } from 'react'
import { PorticoProvider, usePortico } from 'portico/ui'
import { email } from 'portico/plugins/email'

// NEXT_PUBLIC_* variables are inlined at `next build`.
const appId = process.env.NEXT_PUBLIC_PORTICO_APP_ID ?? 'portico-demo-app-00000001'
const apiUrl = process.env.NEXT_PUBLIC_PORTICO_API_URL ?? 'http://127.0.0.1:8787'
const plugins = [email()]

function Status() {
  const { ready, authenticated, user, login, logout, getAccessToken } = usePortico()
  const [me, setMe] = useState('')
  if (!ready) return <p data-testid="status">Loading…</p>
  if (!authenticated) {
    return (
      <p>
        <span data-testid="status">logged out</span> <button onClick={() => void login()}>Log in</button>
      </p>
    )
  }
  // Your backend: the route handler of app/api/me verifies the access token with portico/server.
  const callApi = async () => {
    const res = await fetch('/api/me', { headers: { authorization: `Bearer ${await getAccessToken()}` } })
    const body = (await res.json()) as { id?: string; error?: string }
    setMe(res.ok ? `${body.id}` : `${res.status} ${body.error}`)
  }
  return (
    <>
      <p>
        <span data-testid="status">logged in</span> as <span data-testid="user">{user?.email?.address ?? user?.id}</span> (
        <code data-testid="user-id">{user?.id}</code>){' '}
        <button onClick={() => void logout()}>Log out</button>
      </p>
      <p>
        <button onClick={() => void callApi()}>Call /api/me</button> <output data-testid="me">{me}</output>
      </p>
    </>
  )
}

export function Portico() {
  return (
    <PorticoProvider appId={appId} config={{ apiUrl, loginMethods: ['email'] }} plugins={plugins}>
      <Status />
    </PorticoProvider>
  )
}
