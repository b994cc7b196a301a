/**
 * Demo controls for the OAuth providers: link and unlink Google and GitHub, and what the
 * provider tokens of the last grant were (never the tokens themselves: the demo keeps none).
 */
import { useState } from 'react'
import { useLinkAccount, usePlugin, usePortico, useUser } from 'portico/ui'
import { useOAuthTokens } from 'portico/kits/oauth'
import type { PorticoError } from 'portico'
import { ConfirmButton } from './confirm-button'

const PROVIDERS = [
  ['google', 'Google'],
  ['github', 'GitHub'],
] as const

function UnlinkButton({ id, name, onResult }: { id: (typeof PROVIDERS)[number][0]; name: string; onResult: (r: string) => void }) {
  const api = usePlugin(id)
  const { user } = useUser()
  return (
    <ConfirmButton
      question={`Unlink ${name}?`}
      onConfirm={() => api.unlink().then(() => onResult(`complete: unlink ${id}`), (e: PorticoError) => onResult(`error: ${e.code}`))}
      disabled={!user?.[id]}
    >
      Unlink {name}
    </ConfirmButton>
  )
}

export function OAuthExtras({ onResult }: { onResult: (r: string) => void }) {
  const { authenticated } = usePortico()
  const [grant, setGrant] = useState('')
  const { link } = useLinkAccount({ onComplete: () => onResult('complete: link'), onError: (e) => onResult(`error: ${e.code}`) })
  useOAuthTokens({
    onOAuthTokenGrant: (g) => setGrant(`${g.provider} ${g.intent}: access token (${g.accessTokenExpiresInSeconds ?? '?'} s)${g.refreshToken ? ', refresh token' : ''}; scopes ${g.scopes.join(' ') || '-'}`),
  })
  return (
    <section className="demo-actions" aria-label="OAuth">
      {authenticated
        ? PROVIDERS.map(([id, name]) => (
            <span key={id}>
              <button onClick={() => void link(id)}>Link {name}</button>
              <UnlinkButton id={id} name={name} onResult={onResult} />
            </span>
          ))
        : null}
      <span data-testid="oauth-grant">{grant}</span>
    </section>
  )
}
