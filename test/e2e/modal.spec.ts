/**
 * The modal shell in Chromium against the production build under a strict CSP: open/close
 * (button, Escape, backdrop) with focus returned, both landing layouts and the overflow,
 * bottom sheet vs 360 px dialog, dark theme and accent colour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APPS, startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness({
    extraApps: [
      {
        ...groupsApp(),
      },
    ],
  })
})
afterAll(async () => {
  await h?.close()
})

/** The demo app without a single-list order: the grouped landing with a web3 group. */
function groupsApp() {
  return {
    id: 'portico-e2e-groups-000001',
    name: 'Groups Test',
    accentColor: '#5b4cdb',
    theme: 'light',
    loginMethods: ['email', 'sms', 'wallet', 'guest'],
    legal: { termsAndConditionsUrl: 'https://example.com/terms', privacyPolicyUrl: 'https://example.com/privacy' },
    allowedOrigins: [],
    embeddedWallets: { createOnLogin: 'off' },
  }
}

describe('modal shell', { timeout: 60_000 }, () => {
  it('opens from the button, shows the landing, and closes with the close button, Escape and the backdrop; focus returns', async () => {
    const page = await h.openPage({})
    const ms = await h.openModal(page)
    console.log(`[e2e] click to visible landing: ${ms} ms`)
    const dialog = page.locator('[role=dialog]')
    await expect.poll(() => dialog.getAttribute('aria-modal')).toBe('true')
    const labelledby = await dialog.getAttribute('aria-labelledby')
    expect(await page.locator(`[id="${labelledby}"]`).textContent()).toBe('Log in or sign up')
    expect(await page.evaluate(() => document.querySelector('[role=dialog]')!.contains(document.activeElement))).toBe(true)
    await h.screenshot(page, 'landing-list-desktop')

    await page.click('[data-portico-close]')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('login')
    expect(await page.textContent('[data-testid=result]')).toBe('error: exited_auth_flow')

    await h.openModal(page)
    await page.keyboard.press('Escape')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('login')

    await h.openModal(page)
    await page.mouse.click(20, 20)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(h.consoleErrors(page)).toEqual([])
  })

  it('the first open loads only the landing: plugin and generic screens load when shown', async () => {
    const page = await h.openPage({})
    await h.openModal(page)
    const scripts = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()!).filter((n) => n.endsWith('.js')))
    const before = await scripts()
    // Chunks the entry imports statically are the initial load, whatever their name (the
    // shared code-entry base of e-mail, SMS and MFA is such a chunk, named after plugins/code).
    const initial = await page.evaluate(async () => {
      const src = (document.querySelector('script[type=module][src]') as HTMLScriptElement).src
      const text = await (await fetch(src)).text()
      return [...text.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)].map((m) => m[1])
    })
    expect(initial.length).toBeGreaterThan(0)
    // A screen's chunk renders (it imports the JSX runtime); a flow's helper loaded with the
    // landing's preload (the code kit's `loadCodeLogin`, also a 'code-' chunk) does not.
    const early = before.filter((n) => /^(generic|code|form)-/.test(n) && !initial.includes(n))
    const rendering = await page.evaluate(
      async (names) => (await Promise.all(names.map(async (n) => ((await (await fetch(`/assets/${n}`)).text()).includes('jsx-runtime') ? n : null)))).filter(Boolean),
      early,
    )
    expect(rendering).toEqual([])
    await page.evaluate(() => (window as any).portico.screens.error(new Error('x')))
    await page.waitForSelector('[role=dialog][data-screen=error] .portico-title')
    expect((await scripts()).some((n) => n.startsWith('generic-'))).toBe(true)
  })

  it('shows the logo, a custom header and the login message', async () => {
    const page = await h.openPage({ logo: '/logo.svg', header: 'Welcome to Acme', message: 'Sign in to sync your notes.' })
    await h.openModal(page)
    expect(await page.textContent('.portico-title')).toBe('Welcome to Acme')
    expect(await page.textContent('.portico-description')).toBe('Sign in to sync your notes.')
    await page.waitForFunction(() => (document.querySelector('img.portico-logo') as HTMLImageElement | null)?.naturalWidth! > 0)
    expect(await page.getAttribute('img.portico-logo', 'alt')).toBe('Portico Demo logo')
    await h.screenshot(page, 'landing-logo-message')
    expect(h.consoleErrors(page)).toEqual([])
  })

  it('keeps Tab inside the dialog', async () => {
    const page = await h.openPage({})
    await h.openModal(page)
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true)
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Shift+Tab')
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true)
    }
  })

  it("single list: at most 4 rows with 'More options', the overflow view and back", async () => {
    const page = await h.openPage({ layout: 'list', methods: 'email,sms,wallet,guest', primary: '3' })
    await h.openModal(page)
    const landing = page.locator('.portico-landing[data-view=default]')
    expect(await landing.getAttribute('data-layout')).toBe('list')
    // e-mail is the inline input; sms and wallet rows; then 'More options'
    expect(await page.locator('.portico-landing-input[data-method=email] input[type=email]').count()).toBe(1)
    const rows = await page.locator('.portico-landing .portico-list-button').evaluateAll((els) => els.map((e) => e.getAttribute('data-method')))
    expect(rows).toEqual(['sms', 'wallet', 'more-options'])
    expect(await page.textContent('[data-method=more-options]')).toContain('More options')
    await page.click('[data-method=more-options]')
    await page.waitForSelector('.portico-landing[data-view=overflow]')
    expect(await page.locator('[data-portico-overflow] [data-method]').evaluateAll((els) => els.map((e) => e.getAttribute('data-method')))).toEqual(['guest'])
    await h.screenshot(page, 'landing-overflow')
    await page.click('[data-portico-back]')
    await page.waitForSelector('.portico-landing[data-view=default]')
    const scroll = await page.locator('.portico-scroll').first().evaluate((el) => getComputedStyle(el).maxHeight)
    expect(scroll).toBe('400px')
    expect(await page.textContent('[data-portico-legal]')).toBe('By logging in I agree to the Terms & Privacy Policy')
  })

  it('grouped layout: web2 then web3 by default, web3 first with loginGroupPriority', async () => {
    const page = await h.openPage({ app: 'portico-e2e-groups-000001' })
    await h.openModal(page)
    expect(await page.getAttribute('.portico-landing', 'data-layout')).toBe('groups')
    expect(await page.locator('.portico-group').evaluateAll((els) => els.map((e) => e.getAttribute('data-group')))).toEqual(['web2', 'web3'])
    expect(await page.locator('[data-portico-slot=web3] [data-method]').count()).toBeGreaterThan(0)
    await h.screenshot(page, 'landing-groups')
    const page2 = await h.openPage({ app: 'portico-e2e-groups-000001', priority: 'web3-first' })
    await h.openModal(page2)
    expect(await page2.locator('.portico-group').evaluateAll((els) => els.map((e) => e.getAttribute('data-group')))).toEqual(['web3', 'web2'])
  })

  it('SMS becomes the editable input when listed first; hideInputs shows rows only', async () => {
    const page = await h.openPage({ app: 'portico-e2e-groups-000001', methods: 'sms,email,wallet' })
    await h.openModal(page)
    expect(await page.locator('.portico-landing-input').getAttribute('data-method')).toBe('sms')
    await h.screenshot(page, 'landing-sms-input')
    const page2 = await h.openPage({ app: 'portico-e2e-groups-000001', hideInputs: '1' })
    await h.openModal(page2)
    expect(await page2.locator('.portico-landing-input').count()).toBe(0)
    expect(await page2.locator('.portico-list-button[data-method=email]').count()).toBe(1)
  })

  it('390 px wide: a bottom sheet; 1280 px: a 360 px dialog; heights capped at 620 px', async () => {
    // openModal returns once the dialog has settled (no running animation, same box on two
    // frames); with reduced motion (the harness default) there is no opening animation at all.
    const mobile = await h.openPage({}, { viewport: { width: 390, height: 844 } })
    await h.openModal(mobile)
    const dialog = mobile.locator('[role=dialog]')
    expect(await dialog.evaluate((el) => getComputedStyle(el).animationName)).toBe('none')
    const m = await dialog.boundingBox()
    expect(m!.width).toBe(390)
    expect(Math.round(m!.y + m!.height)).toBe(844)
    expect(await dialog.evaluate((el) => getComputedStyle(el).borderBottomLeftRadius)).toBe('0px')
    await h.screenshot(mobile, 'landing-mobile-sheet')

    const desktop = await h.openPage({})
    await h.openModal(desktop)
    const d = await desktop.locator('[role=dialog]').boundingBox()
    expect(d!.width).toBe(360)
    expect(d!.x).toBe((1280 - 360) / 2)
    expect(await desktop.locator('[role=dialog]').evaluate((el) => getComputedStyle(el).maxHeight)).toBe('620px')
  })

  it('with motion allowed the dialog animates in, and its settled box is the 360 px dialog', async () => {
    const page = await h.openPage({}, { reducedMotion: 'no-preference' })
    await page.click('[data-testid=login]')
    await page.waitForSelector('[role=dialog][data-screen=landing] .portico-title')
    // The computed style names the animation whether or not it has finished by now.
    expect(await page.locator('[role=dialog]').evaluate((el) => getComputedStyle(el).animationName)).toBe('portico-pop')
    await h.waitForDialogSettled(page)
    const d = await page.locator('[role=dialog]').boundingBox()
    expect(d!.width).toBe(360)
    expect(d!.x).toBe((1280 - 360) / 2)
  })

  it('dark theme and the accent colour apply through data attributes and CSS variables', async () => {
    const page = await h.openPage({ theme: 'dark', accent: '#e4572e' })
    await h.openModal(page)
    expect(await page.getAttribute('.portico-root', 'data-theme')).toBe('dark')
    const styles = await page.evaluate(() => {
      const root = document.querySelector('.portico-root') as HTMLElement
      const dialog = document.querySelector('[role=dialog]') as HTMLElement
      return {
        accent: getComputedStyle(root).getPropertyValue('--portico-accent').trim(),
        bg: getComputedStyle(dialog).backgroundColor,
        styleAttrs: document.querySelectorAll('.portico-root [style]').length,
        inlineStyles: document.querySelectorAll('style').length,
      }
    })
    expect(styles.accent).toBe('#e4572e')
    expect(styles.bg).toBe('rgb(23, 23, 31)')
    expect(styles.inlineStyles).toBe(0)
    // Type an address so the accent-coloured submit shows in the screenshot.
    await page.fill('input[type=email]', 'ana@example.com')
    await h.screenshot(page, 'landing-dark-accent')
    expect(h.consoleErrors(page)).toEqual([])
  })

  it('the CSP page shows and runs the modal without a console error or CSP violation', async () => {
    const page = await h.openPage({ app: APPS.demo })
    const header = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'))
    expect(header).toBe(h.csp)
    const violations: string[] = []
    await page.exposeFunction('__cspViolation', (v: string) => violations.push(v))
    await page.evaluate(() => document.addEventListener('securitypolicyviolation', (e) => (window as any).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`)))
    await h.openModal(page)
    await page.click('[data-method=more-options]')
    await page.waitForSelector('.portico-landing[data-view=overflow]')
    await page.click('[data-portico-back]')
    await page.click('[data-portico-close]')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(violations).toEqual([])
    expect(h.consoleErrors(page)).toEqual([])
  })
})
