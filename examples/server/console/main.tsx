/**
 * The operators' console (issue 32): a Portico app (portico-console-app-00001) served by the
 * server at /admin (src/console-page.ts). Operators sign in through portico/ui's modal with the
 * e-mail plugin; every page calls the admin API (/admin/v1) with their access token. What the
 * caller's role may not change is disabled here, and refused by the API anyway.
 */
import { useCallback, useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { PorticoProvider, usePortico } from 'portico/ui'
import { email } from 'portico/plugins/email'

const CONSOLE_APP_ID = 'portico-console-app-00001'
const METHODS = ['email', 'sms', 'wallet', 'passkey', 'google', 'apple', 'github', 'discord', 'twitter', 'guest', 'farcaster', 'telegram']

// ---------------------------------------------------------------- theme (system, or the toggle)
type Theme = 'light' | 'dark'
const systemTheme = (): Theme => (window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')
function useTheme(): [Theme, () => void] {
  const [chosen, setChosen] = useState<Theme | null>(() => (localStorage.getItem('portico-console-theme') as Theme | null) ?? null)
  const [system, setSystem] = useState<Theme>(systemTheme)
  useEffect(() => {
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)')
    const on = () => setSystem(systemTheme())
    mq?.addEventListener('change', on)
    return () => mq?.removeEventListener('change', on)
  }, [])
  const theme = chosen ?? system
  useEffect(() => {
    document.documentElement.dataset.theme = theme
  }, [theme])
  const toggle = () => {
    const next = theme === 'dark' ? 'light' : 'dark'
    localStorage.setItem('portico-console-theme', next)
    setChosen(next)
  }
  return [theme, toggle]
}

// ---------------------------------------------------------------- the admin API
interface ApiResult<T = any> {
  status: number
  body: T
}
type Api = <T = any>(path: string, o?: { method?: string; body?: unknown }) => Promise<ApiResult<T>>

function useApi(): Api {
  const { getAccessToken } = usePortico()
  return useCallback(
    async (path, o = {}) => {
      const token = await getAccessToken()
      const res = await fetch(`/admin/v1${path}`, {
        method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${token ?? ''}`, ...(o.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
      })
      const text = await res.text()
      let body: any = text
      try {
        body = text ? JSON.parse(text) : null
      } catch {}
      return { status: res.status, body }
    },
    [getAccessToken],
  )
}

const errorText = (r: ApiResult) => (r.body && typeof r.body === 'object' && r.body.error ? String(r.body.error) : `Request failed (${r.status})`)
const fieldsOf = (r: ApiResult): Record<string, string> => (r.body?.data?.fields as Record<string, string>) ?? {}

interface Me {
  actor: string
  role: 'owner' | 'admin' | 'viewer' | null
  scopes: string[]
}

// ---------------------------------------------------------------- small parts
function Field({ id, label, error, children, hint }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="c-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? <small id={`${id}-hint`}>{hint}</small> : null}
      {error ? (
        <p className="c-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

function Secret({ label, value }: { label: string; value: string }) {
  return (
    <div className="c-secret" role="status">
      <p>{label} It is shown this once: copy it now.</p>
      <code data-testid="secret">{value}</code>
    </div>
  )
}

const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10)
const time = (t: number) => new Date(t * 1000).toISOString().replace('T', ' ').slice(0, 19)

// ---------------------------------------------------------------- apps
function AppEditor({ api, app, canWrite, onSaved }: { api: Api; app: any; canWrite: boolean; onSaved: () => void }) {
  const s = app.settings
  const [name, setName] = useState<string>(s.name ?? '')
  const [methods, setMethods] = useState<string[]>(s.loginMethods ?? [])
  const [origins, setOrigins] = useState<string>((s.allowedOrigins ?? []).join('\n'))
  const [theme, setTheme] = useState<string>(s.theme ?? '')
  const [accent, setAccent] = useState<string>(s.accentColor ?? '')
  const [createOnLogin, setCreateOnLogin] = useState<string>(s.embeddedWallets?.createOnLogin ?? 'off')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [message, setMessage] = useState('')
  const [secret, setSecret] = useState('')
  const allMethods = [...new Set([...METHODS, ...(s.loginMethods ?? [])])]

  async function save(e: FormEvent) {
    e.preventDefault()
    setMessage('')
    const patch = {
      name,
      loginMethods: methods,
      allowedOrigins: origins.split(/\s+/).filter(Boolean),
      theme: theme || null,
      accentColor: accent || null,
      embeddedWallets: { createOnLogin },
    }
    const r = await api(`/apps/${app.id}`, { method: 'PATCH', body: patch })
    if (r.status === 200) {
      setErrors({})
      setMessage('Saved.')
      onSaved()
    } else {
      setErrors(fieldsOf(r))
      setMessage(errorText(r))
    }
  }
  async function rotate() {
    if (!window.confirm('Rotate the app secret? The old secret stops working at once.')) return
    const r = await api(`/apps/${app.id}/secret`, { method: 'POST' })
    if (r.status === 200) setSecret(r.body.app_secret)
    else setMessage(errorText(r))
  }
  const err = (k: string) => errors[k] ?? Object.entries(errors).find(([f]) => f.startsWith(`${k}.`))?.[1]
  return (
    <section aria-labelledby="editor-title" className="c-card">
      <h2 id="editor-title">{app.id}</h2>
      <div className="c-split">
        <form onSubmit={save} noValidate>
          <fieldset disabled={!canWrite}>
            <Field id="app-name" label="Name" error={err('name')}>
              <input id="app-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!err('name')} />
            </Field>
            <fieldset className="c-methods">
              <legend>Login methods</legend>
              {allMethods.map((m) => (
                <label key={m} className="c-check">
                  <input
                    type="checkbox"
                    name="loginMethods"
                    value={m}
                    checked={methods.includes(m)}
                    onChange={(e) => setMethods(e.target.checked ? [...methods, m] : methods.filter((x) => x !== m))}
                  />
                  {m}
                </label>
              ))}
              {err('loginMethods') ? (
                <p className="c-error" role="alert">
                  {err('loginMethods')}
                </p>
              ) : null}
            </fieldset>
            <Field id="app-origins" label="Allowed origins" hint="One origin a line, e.g. https://app.example.com" error={err('allowedOrigins')}>
              <textarea id="app-origins" rows={3} value={origins} onChange={(e) => setOrigins(e.target.value)} aria-invalid={!!err('allowedOrigins')} />
            </Field>
            <Field id="app-theme" label="Modal theme" error={err('theme')}>
              <select id="app-theme" value={theme} onChange={(e) => setTheme(e.target.value)}>
                <option value="">Follow the host page</option>
                <option value="light">Light</option>
                <option value="dark">Dark</option>
              </select>
            </Field>
            <Field id="app-accent" label="Accent colour" hint="#RRGGBB" error={err('accentColor')}>
              <input id="app-accent" value={accent} onChange={(e) => setAccent(e.target.value)} aria-invalid={!!err('accentColor')} />
            </Field>
            <Field id="app-wallets" label="Create an embedded wallet on login" error={err('embeddedWallets')}>
              <select id="app-wallets" value={createOnLogin} onChange={(e) => setCreateOnLogin(e.target.value)}>
                <option value="off">Off</option>
                <option value="users-without-wallets">Users without wallets</option>
                <option value="all-users">All users</option>
              </select>
            </Field>
            <div className="c-row">
              <button type="submit" className="c-primary">
                Save
              </button>
              <button type="button" onClick={() => void rotate()}>
                Rotate app secret
              </button>
            </div>
          </fieldset>
          {message ? (
            <p role="status" className={Object.keys(errors).length ? 'c-error' : 'c-ok'}>
              {message}
            </p>
          ) : null}
          {secret ? <Secret label="The new app secret." value={secret} /> : null}
        </form>
        <Preview name={name} theme={theme} accent={accent} methods={methods} />
      </div>
    </section>
  )
}

/** What the login modal will show: the app's name, theme, accent colour and methods. */
function Preview({ name, theme, accent, methods }: { name: string; theme: string; accent: string; methods: string[] }) {
  const colour = /^#[0-9a-fA-F]{6}$/.test(accent) ? accent : '#5b5bd6'
  return (
    <figure className="c-preview" aria-label="Preview of the login modal">
      <svg viewBox="0 0 240 200" role="img" aria-label={`Modal of ${name || 'the app'}: ${methods.join(', ') || 'no login method'}`} className={theme === 'dark' ? 'c-pv-dark' : 'c-pv-light'}>
        <rect x="1" y="1" width="238" height="198" rx="14" className="c-pv-bg" />
        <text x="120" y="30" textAnchor="middle" className="c-pv-title">
          Log in to {name.slice(0, 22) || '…'}
        </text>
        {methods.slice(0, 5).map((m, i) => (
          <g key={m}>
            <rect x="20" y={44 + i * 29} width="200" height="23" rx="7" className="c-pv-btn" />
            <text x="120" y={60 + i * 29} textAnchor="middle" className="c-pv-text">
              {m}
            </text>
          </g>
        ))}
        <rect x="20" y="190" width="200" height="4" rx="2" fill={colour} />
      </svg>
      <figcaption>Preview</figcaption>
    </figure>
  )
}

function AppsPage({ api, canWrite }: { api: Api; canWrite: boolean }) {
  const [apps, setApps] = useState<any[]>([])
  const [sel, setSel] = useState<string | null>(null)
  const [error, setError] = useState('')
  const load = useCallback(async () => {
    const r = await api('/apps')
    if (r.status === 200) setApps(r.body.apps)
    else setError(errorText(r))
  }, [api])
  useEffect(() => void load(), [load])
  const app = apps.find((a) => a.id === sel)
  return (
    <>
      {app ? <AppEditor key={app.id} api={api} app={app} canWrite={canWrite} onSaved={() => void load()} /> : null}
      <section aria-labelledby="apps-title" className="c-card">
        <h2 id="apps-title">Apps</h2>
        {error ? <p className="c-error">{error}</p> : null}
        <ul className="c-list">
          {apps.map((a) => (
            <li key={a.id}>
              <button type="button" aria-pressed={a.id === sel} onClick={() => setSel(a.id)}>
                <strong>{a.settings.name}</strong> <span className="c-muted">{a.id}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </>
  )
}

// ---------------------------------------------------------------- users
function UsersPage({ api, appId, canWrite }: { api: Api; appId: string; canWrite: boolean }) {
  const [q, setQ] = useState('')
  const [users, setUsers] = useState<any[]>([])
  const [user, setUser] = useState<any>(null)
  const [message, setMessage] = useState('')
  async function search(e?: FormEvent) {
    e?.preventDefault()
    const r = await api(`/apps/${appId}/users?${new URLSearchParams(q ? { q } : {})}`)
    if (r.status === 200) {
      setUsers(r.body.users)
      setMessage(r.body.users.length ? '' : 'No user found.')
    } else setMessage(errorText(r))
  }
  async function view(id: string) {
    const r = await api(`/apps/${appId}/users/${encodeURIComponent(id)}`)
    if (r.status === 200) setUser({ ...r.body.user, sessions: r.body.sessions ?? [] })
    else setMessage(errorText(r))
  }
  async function revoke() {
    const r = await api(`/apps/${appId}/users/${encodeURIComponent(user.id)}/sessions/revoke`, { method: 'POST' })
    setMessage(r.status === 200 ? 'Every session of this user has ended.' : errorText(r))
  }
  async function remove() {
    if (!window.confirm(`Delete ${user.id}? This cannot be undone.`)) return
    const r = await api(`/apps/${appId}/users/${encodeURIComponent(user.id)}`, { method: 'DELETE' })
    if (r.status === 200) {
      setMessage('User deleted.')
      setUser(null)
      setUsers(users.filter((u) => u.id !== user.id))
    } else setMessage(errorText(r))
  }
  const { getAccessToken } = usePortico()
  async function exportUsers(format: 'jsonl' | 'csv') {
    const res = await fetch(`/admin/v1/apps/${appId}/users/export?format=${format}`, { headers: { authorization: `Bearer ${(await getAccessToken()) ?? ''}` } })
    if (!res.ok) return setMessage(`Export failed (${res.status})`)
    const url = URL.createObjectURL(await res.blob())
    const a = document.createElement('a')
    a.href = url
    a.download = `users-${appId}.${format}`
    document.body.append(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }
  const label = (u: any) => u.linked_accounts?.map((a: any) => a.address ?? a.email ?? a.subject ?? a.type).join(', ') || u.id
  return (
    <section aria-labelledby="users-title" className="c-card">
      <h2 id="users-title">Users</h2>
      <form onSubmit={search} className="c-row" role="search">
        <label htmlFor="user-q" className="c-sr">
          Search users
        </label>
        <input id="user-q" value={q} onChange={(e) => setQ(e.target.value)} placeholder="E-mail, wallet address, phone or user id" />
        <button type="submit" className="c-primary">
          Search
        </button>
        <button type="button" onClick={() => void exportUsers('jsonl')}>
          Export JSON Lines
        </button>
        <button type="button" onClick={() => void exportUsers('csv')}>
          Export CSV
        </button>
      </form>
      {message ? <p role="status">{message}</p> : null}
      <ul className="c-list" aria-label="Users found">
        {users.map((u) => (
          <li key={u.id}>
            <button type="button" onClick={() => void view(u.id)}>
              {label(u)} <span className="c-muted">{u.id}</span>
            </button>
          </li>
        ))}
      </ul>
      {user ? (
        <div className="c-user" aria-label="User">
          <h3>{user.id}</h3>
          <p>
            Created {time(user.created_at)}; {user.sessions.filter((x: any) => x.active).length} active session(s)
          </p>
          <ul>
            {(user.linked_accounts ?? []).map((a: any, i: number) => (
              <li key={i}>
                {a.type}: {a.address ?? a.email ?? a.subject ?? a.number ?? ''}
              </li>
            ))}
          </ul>
          <div className="c-row">
            <button type="button" disabled={!canWrite} onClick={() => void revoke()}>
              Revoke sessions
            </button>
            <button type="button" className="c-danger" disabled={!canWrite} onClick={() => void remove()}>
              Delete user
            </button>
          </div>
        </div>
      ) : null}
    </section>
  )
}

// ---------------------------------------------------------------- webhooks
function WebhooksPage({ api, appId, canWrite }: { api: Api; appId: string; canWrite: boolean }) {
  const [endpoints, setEndpoints] = useState<any[]>([])
  const [events, setEvents] = useState<string[]>([])
  const [deliveries, setDeliveries] = useState<any[]>([])
  const [url, setUrl] = useState('')
  const [chosen, setChosen] = useState<string[]>(['user.created', 'user.authenticated'])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [secret, setSecret] = useState('')
  const [message, setMessage] = useState('')
  const load = useCallback(async () => {
    const [e, d] = await Promise.all([api(`/apps/${appId}/webhooks`), api(`/apps/${appId}/webhooks/deliveries?limit=50`)])
    if (e.status === 200) {
      setEndpoints(e.body.endpoints)
      setEvents(e.body.events)
    }
    if (d.status === 200) setDeliveries(d.body.deliveries)
  }, [api, appId])
  useEffect(() => void load(), [load])
  async function create(e: FormEvent) {
    e.preventDefault()
    const r = await api(`/apps/${appId}/webhooks`, { body: { url, events: chosen } })
    if (r.status === 201) {
      setErrors({})
      setSecret(r.body.secret)
      setUrl('')
      void load()
    } else setErrors({ ...fieldsOf(r), ...(Object.keys(fieldsOf(r)).length ? {} : { url: errorText(r) }) })
  }
  async function act(path: string, method: string, body?: unknown) {
    const r = await api(path, { method, body })
    setMessage(r.status === 200 ? '' : errorText(r))
    void load()
  }
  return (
    <section aria-labelledby="webhooks-title" className="c-card">
      <h2 id="webhooks-title">Webhooks</h2>
      <form onSubmit={create} noValidate>
        <fieldset disabled={!canWrite}>
          <Field id="wh-url" label="Endpoint URL" error={errors.url}>
            <input id="wh-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} aria-invalid={!!errors.url} />
          </Field>
          <fieldset className="c-methods">
            <legend>Events</legend>
            {events.map((ev) => (
              <label key={ev} className="c-check">
                <input type="checkbox" checked={chosen.includes(ev)} onChange={(e) => setChosen(e.target.checked ? [...chosen, ev] : chosen.filter((x) => x !== ev))} />
                {ev}
              </label>
            ))}
            {errors.events ? <p className="c-error">{errors.events}</p> : null}
          </fieldset>
          <button type="submit" className="c-primary">
            Add endpoint
          </button>
        </fieldset>
      </form>
      {secret ? <Secret label="The endpoint's signing secret." value={secret} /> : null}
      {message ? <p className="c-error">{message}</p> : null}
      <h3>Endpoints</h3>
      <ul className="c-list" aria-label="Endpoints">
        {endpoints.map((ep) => (
          <li key={ep.id} className="c-row">
            <span>
              {ep.url} <span className="c-muted">{ep.events.join(', ')}</span> {ep.enabled ? '' : '(disabled)'}
            </span>
            <button type="button" disabled={!canWrite || ep.source === 'config'} onClick={() => void act(`/apps/${appId}/webhooks/${ep.id}`, 'PATCH', { enabled: !ep.enabled })}>
              {ep.enabled ? 'Disable' : 'Enable'}
            </button>
            <button
              type="button"
              className="c-danger"
              disabled={!canWrite || ep.source === 'config'}
              onClick={() => window.confirm(`Delete the endpoint ${ep.url}?`) && void act(`/apps/${appId}/webhooks/${ep.id}`, 'DELETE')}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      <div className="c-row">
        <h3>Deliveries</h3>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <div className="c-scroll">
        <table aria-label="Deliveries">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">State</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="c-sr">Replay</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id}>
                <td>{time(d.created_at)}</td>
                <td>{d.event_type}</td>
                <td>{d.state}</td>
                <td>{d.last_status ?? '—'}</td>
                <td>
                  <button type="button" disabled={!canWrite} onClick={() => void act(`/apps/${appId}/webhooks/deliveries/${d.id}/replay`, 'POST')}>
                    Replay
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

// ---------------------------------------------------------------- stats
function Chart({ title, rows, days, from }: { title: string; rows: { day: number; method: string; count: number }[]; days: number; from: number }) {
  const methods = [...new Set(rows.map((r) => r.method))].sort()
  const totals = new Map<number, number>()
  for (const r of rows) totals.set(r.day, (totals.get(r.day) ?? 0) + r.count)
  const max = Math.max(1, ...totals.values())
  const w = 600
  const h = 160
  const bw = w / days
  const sum = rows.reduce((n, r) => n + r.count, 0)
  return (
    <figure className="c-chart">
      <figcaption>
        {title}: {sum} in {days} days
      </figcaption>
      <svg viewBox={`0 0 ${w} ${h + 20}`} role="img" aria-label={`${title} per day by method: ${methods.map((m) => `${m} ${rows.filter((r) => r.method === m).reduce((n, r) => n + r.count, 0)}`).join(', ') || 'none'}`}>
        <line x1="0" y1={h} x2={w} y2={h} className="c-axis" />
        {Array.from({ length: days }, (_, i) => {
          const t = from + i * 86400
          let y = h
          return (
            <g key={t}>
              {methods.map((m, mi) => {
                const n = rows.find((r) => r.day === t && r.method === m)?.count ?? 0
                if (!n) return null
                const bh = (n / max) * (h - 10)
                y -= bh
                return (
                  <rect key={m} x={i * bw + 1} y={y} width={Math.max(1, bw - 2)} height={bh} className={`c-bar c-bar-${mi % 6}`}>
                    <title>{`${day(t)} ${m}: ${n}`}</title>
                  </rect>
                )
              })}
            </g>
          )
        })}
        <text x="0" y={h + 16} className="c-tick">
          {day(from)}
        </text>
        <text x={w} y={h + 16} textAnchor="end" className="c-tick">
          {day(from + (days - 1) * 86400)}
        </text>
      </svg>
      <ul className="c-legend">
        {methods.map((m, mi) => (
          <li key={m}>
            <span className={`c-swatch c-bar-${mi % 6}`} aria-hidden="true" /> {m}
          </li>
        ))}
      </ul>
    </figure>
  )
}

function StatsPage({ api, appId }: { api: Api; appId: string }) {
  const [days, setDays] = useState(30)
  const [stats, setStats] = useState<any>(null)
  useEffect(() => {
    void api(`/apps/${appId}/stats?days=${days}`).then((r) => r.status === 200 && setStats(r.body))
  }, [api, appId, days])
  return (
    <section aria-labelledby="stats-title" className="c-card">
      <h2 id="stats-title">Sign-ups and logins</h2>
      <label htmlFor="stats-days">Days</label>{' '}
      <select id="stats-days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
        {[7, 30, 90].map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      {stats ? (
        <>
          <Chart title="Sign-ups" rows={stats.signups} days={stats.days} from={stats.from} />
          <Chart title="Logins" rows={stats.logins} days={stats.days} from={stats.from} />
        </>
      ) : null}
    </section>
  )
}

// ---------------------------------------------------------------- the shell
type Page = 'apps' | 'users' | 'webhooks' | 'stats'

function Console({ theme, toggleTheme }: { theme: Theme; toggleTheme: () => void }) {
  const { ready, authenticated, user, login, logout } = usePortico()
  const api = useApi()
  const [me, setMe] = useState<Me | null>(null)
  const [refused, setRefused] = useState('')
  const [page, setPage] = useState<Page>('apps')
  const [apps, setApps] = useState<{ id: string; name: string }[]>([])
  const [appId, setAppId] = useState('')
  useEffect(() => {
    if (!authenticated) return setMe(null)
    void (async () => {
      const r = await api<Me>('/me')
      if (r.status !== 200) return setRefused(errorText(r))
      setRefused('')
      setMe(r.body)
      const a = await api('/apps')
      if (a.status === 200) {
        const list = a.body.apps.filter((x: any) => x.id !== CONSOLE_APP_ID).map((x: any) => ({ id: x.id, name: x.settings.name }))
        setApps(list)
        setAppId((cur) => cur || list[0]?.id || '')
      }
    })()
  }, [authenticated, api])
  const canWrite = !!me?.scopes.includes('apps:write')
  const canWriteUsers = !!me?.scopes.includes('users:write')
  const themeButton = (
    <button type="button" onClick={toggleTheme} aria-label={`Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme`}>
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  )
  if (!ready) return <p className="c-loading">Loading…</p>
  if (!authenticated)
    return (
      <main className="c-signin">
        <div className="c-card">
          <h1>Portico console</h1>
          <p>Operators sign in with the e-mail the server's owner added.</p>
          <div className="c-row">
            <button type="button" className="c-primary" onClick={() => void login()}>
              Sign in
            </button>
            {themeButton}
          </div>
        </div>
      </main>
    )
  const tabs: [Page, string][] = [
    ['apps', 'Apps'],
    ['users', 'Users'],
    ['webhooks', 'Webhooks'],
    ['stats', 'Stats'],
  ]
  return (
    <>
      <header className="c-header">
        <strong>Portico console</strong>
        <span className="c-muted" data-testid="whoami">
          {user?.email?.address ?? user?.id} {me?.role ? `(${me.role})` : ''}
        </span>
        <span className="c-grow" />
        {themeButton}
        <button type="button" onClick={() => void logout()}>
          Sign out
        </button>
      </header>
      {refused ? (
        <main>
          <p className="c-error" role="alert">
            {refused}
          </p>
        </main>
      ) : (
        <>
          <nav aria-label="Console" className="c-nav">
            {tabs.map(([p, l]) => (
              <button key={p} type="button" aria-current={page === p ? 'page' : undefined} onClick={() => setPage(p)}>
                {l}
              </button>
            ))}
            {page !== 'apps' ? (
              <>
                <label htmlFor="app-pick" className="c-sr">
                  App
                </label>
                <select id="app-pick" value={appId} onChange={(e) => setAppId(e.target.value)}>
                  {apps.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name} ({a.id})
                    </option>
                  ))}
                </select>
              </>
            ) : null}
          </nav>
          <main>
            {me && page === 'apps' ? <AppsPage api={api} canWrite={canWrite} /> : null}
            {me && page === 'users' && appId ? <UsersPage key={appId} api={api} appId={appId} canWrite={canWriteUsers} /> : null}
            {me && page === 'webhooks' && appId ? <WebhooksPage key={appId} api={api} appId={appId} canWrite={canWrite} /> : null}
            {me && page === 'stats' && appId ? <StatsPage key={appId} api={api} appId={appId} /> : null}
          </main>
        </>
      )}
    </>
  )
}

function Root() {
  const [theme, toggleTheme] = useTheme()
  const config = useMemo(() => ({ apiUrl: window.location.origin, loginMethods: ['email'], appearance: { theme } }), [theme])
  return (
    <PorticoProvider appId={CONSOLE_APP_ID} config={config as any} plugins={[email()]}>
      <Console theme={theme} toggleTheme={toggleTheme} />
    </PorticoProvider>
  )
}

createRoot(document.getElementById('root')!).render(<Root />)
