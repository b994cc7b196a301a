// @vitest-environment happy-dom
/**
 * The OAuth providers, one table: each provider's descriptor, the plugin contract, its method
 * (display name, transfer label, account type, user field), the linked account as the server
 * maps the provider's recorded profile, its landing row, and its logo (issue 25: an inline
 * SVG drawing, no text glyph, no remote image, no style attribute, unique gradient ids).
 * Imported through the public entries (`portico/plugins/<id>`), as an app does.
 */
import { describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { createElement, type ComponentType } from 'react'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { google, GOOGLE_PROVIDER } from 'portico/plugins/google'
import { apple, APPLE_PROVIDER } from 'portico/plugins/apple'
import { discord, DISCORD_PROVIDER } from 'portico/plugins/discord'
import { github, GITHUB_PROVIDER } from 'portico/plugins/github'
import { instagram, INSTAGRAM_PROVIDER } from 'portico/plugins/instagram'
import { linkedin, LINKEDIN_PROVIDER } from 'portico/plugins/linkedin'
import { spotify, SPOTIFY_PROVIDER } from 'portico/plugins/spotify'
import { tiktok, TIKTOK_PROVIDER } from 'portico/plugins/tiktok'
import { twitter, TWITTER_PROVIDER } from 'portico/plugins/twitter'

/** `profile`: the linked account's fields as the server sends them after mapping the provider's profile. */
const PROVIDERS = [
  { id: 'google', plugin: google, descriptor: GOOGLE_PROVIDER, name: 'Google', refusesInAppBrowsers: true, profile: {"subject": "110169484474386276334", "email": "alice@example.com", "name": "Alice Example", "username": null} },
  { id: 'apple', plugin: apple, descriptor: APPLE_PROVIDER, name: 'Apple', refusesInAppBrowsers: false, profile: {"subject": "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234", "email": "alice@privaterelay.appleid.com", "name": null, "username": null} },
  { id: 'discord', plugin: discord, descriptor: DISCORD_PROVIDER, name: 'Discord', refusesInAppBrowsers: false, profile: {"subject": "80351110224678912", "email": "alice@example.com", "name": "Alice", "username": "alice"} },
  { id: 'github', plugin: github, descriptor: GITHUB_PROVIDER, name: 'GitHub', refusesInAppBrowsers: false, profile: {"subject": "583231", "email": "alice@example.com", "name": "Alice Example", "username": "octocat"} },
  { id: 'instagram', plugin: instagram, descriptor: INSTAGRAM_PROVIDER, name: 'Instagram', refusesInAppBrowsers: false, profile: {"subject": "17841400000000000", "email": null, "name": null, "username": "alice.example"} },
  { id: 'linkedin', plugin: linkedin, descriptor: LINKEDIN_PROVIDER, name: 'LinkedIn', refusesInAppBrowsers: false, profile: {"subject": "782bbtaQ", "email": "alice@example.com", "name": "Alice Example", "username": null} },
  { id: 'spotify', plugin: spotify, descriptor: SPOTIFY_PROVIDER, name: 'Spotify', refusesInAppBrowsers: false, profile: {"subject": "alice123", "email": "alice@example.com", "name": "Alice Example", "username": null} },
  { id: 'tiktok', plugin: tiktok, descriptor: TIKTOK_PROVIDER, name: 'TikTok', refusesInAppBrowsers: false, profile: {"subject": "-000OnEXAMPLEopenid", "email": null, "name": "Alice", "username": "alice"} },
  { id: 'twitter', plugin: twitter, descriptor: TWITTER_PROVIDER, name: 'Twitter', refusesInAppBrowsers: false, profile: {"subject": "2244994945", "email": null, "name": "Alice Example", "username": "alice"} },
]

for (const p of PROVIDERS) pluginContract(() => p.plugin(), { loginMethods: [p.id] })

describe.each(PROVIDERS)('$id', (p) => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [p.plugin()], app: { login_methods: [p.id] } })
    const m = kernel.methods.get(p.id)!
    expect(m).toMatchObject({ displayName: p.name, transferLabel: `${p.name} profile`, accountTypes: [`${p.id}_oauth`], userField: p.id })
    expect(kernel.methods.forAccountType(`${p.id}_oauth`)?.id).toBe(p.id)
    expect(kernel.methods.forLinkMethod(p.id)?.id).toBe(p.id)
    expect(p.descriptor).toMatchObject({ id: p.id, provider: p.id, displayName: p.name })
    expect(!!(p.descriptor as { refusesInAppBrowsers?: boolean }).refusesInAppBrowsers).toBe(p.refusesInAppBrowsers)
    kernel.destroy()
  })

  it("normalises the provider's recorded profile shape into user[id]", async () => {
    const recorded = { type: `${p.id}_oauth`, ...p.profile, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }
    const user = wireUser({ accounts: [recorded] as never })
    const { kernel } = await createTestKernel({ plugins: [p.plugin()], user })
    const account = (kernel.session.user as unknown as Record<string, Record<string, unknown>>)[p.id]
    expect(account).toMatchObject({ type: `${p.id}_oauth`, ...p.profile })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [p.plugin()], app: { login_methods: [p.id] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: p.id, label: p.name, group: 'web2', screen: `${p.id}-oauth` }])
    const off = await createTestKernel({ plugins: [p.plugin()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })

  it('draws its logo as an SVG drawing, not a letter, with no style attribute', () => {
    expect(typeof p.descriptor.icon).toBe('function')
    const html = renderToStaticMarkup(createElement(p.descriptor.icon as ComponentType))
    expect(html).toMatch(/^<svg[^>]* aria-hidden="true"/)
    expect(html).toMatch(/<(path|rect|circle|ellipse)\b/)
    expect(html).not.toMatch(/<text\b|<img\b|<image\b|\sstyle=|href=/)
  })
})

describe('provider logos', () => {
  it('draws a different logo for each provider', () => {
    const drawings = PROVIDERS.map((p) => renderToStaticMarkup(createElement(p.descriptor.icon as ComponentType)))
    expect(new Set(drawings).size).toBe(PROVIDERS.length)
  })

  it('gives each Instagram drawing its own gradient id', () => {
    const Logo = INSTAGRAM_PROVIDER.icon as ComponentType
    const html = renderToStaticMarkup(createElement('div', null, createElement(Logo), createElement(Logo)))
    const ids = [...html.matchAll(/<linearGradient id="([^"]+)"/g)].map((m) => m[1])
    expect(ids).toHaveLength(2)
    expect(new Set(ids).size).toBe(2)
    for (const id of ids) expect(html).toContain(`fill="url(#${id})"`)
  })
})
