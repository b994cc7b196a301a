// @vitest-environment happy-dom
/**
 * Every social provider's landing row shows its logo (issue 25: the rows drew letter
 * placeholders): an inline SVG drawing, no text glyph, no remote image, no style attribute
 * (a strict CSP refuses inline styles), and unique gradient ids when drawn twice.
 */
import { describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { createElement, type ComponentType } from 'react'
import { GOOGLE_PROVIDER } from 'portico/plugins/google'
import { APPLE_PROVIDER } from 'portico/plugins/apple'
import { GITHUB_PROVIDER } from 'portico/plugins/github'
import { TWITTER_PROVIDER } from 'portico/plugins/twitter'
import { DISCORD_PROVIDER } from 'portico/plugins/discord'
import { LINKEDIN_PROVIDER } from 'portico/plugins/linkedin'
import { SPOTIFY_PROVIDER } from 'portico/plugins/spotify'
import { TIKTOK_PROVIDER } from 'portico/plugins/tiktok'
import { INSTAGRAM_PROVIDER } from 'portico/plugins/instagram'

const PROVIDERS = [GOOGLE_PROVIDER, APPLE_PROVIDER, GITHUB_PROVIDER, TWITTER_PROVIDER, DISCORD_PROVIDER, LINKEDIN_PROVIDER, SPOTIFY_PROVIDER, TIKTOK_PROVIDER, INSTAGRAM_PROVIDER]

describe('provider logos', () => {
  it.each(PROVIDERS.map((p) => [p.id, p] as const))('%s: an SVG drawing, not a letter, no style attribute', (_id, p) => {
    expect(typeof p.icon).toBe('function')
    const html = renderToStaticMarkup(createElement(p.icon as ComponentType))
    expect(html).toMatch(/^<svg[^>]* aria-hidden="true"/)
    expect(html).toMatch(/<(path|rect|circle|ellipse)\b/)
    expect(html).not.toMatch(/<text\b|<img\b|<image\b|\sstyle=|href=/)
  })

  it('draws a different logo for each provider', () => {
    const drawings = PROVIDERS.map((p) => renderToStaticMarkup(createElement(p.icon as ComponentType)))
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
