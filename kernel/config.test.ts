import { describe, expect, it, vi } from 'vitest'
import { CONFIG_TEXTS, LOGIN_MESSAGE_MAX, MAINNET, resolveConfig, validateAppId, type PorticoConfig } from './config'
import { PorticoError } from './errors'
import type { WireAppConfig } from './wire'

const appId = 'portico-test-app-00000001'
const server = (o: Partial<WireAppConfig> = {}): WireAppConfig => ({ id: appId, name: 'Acme', login_methods: ['email'], ...o })
const resolve = (host: Partial<PorticoConfig>, s: WireAppConfig | null = server()) => {
  const warnings: string[] = []
  const config = resolveConfig({ appId, ...host } as PorticoConfig, s, (m) => warnings.push(m))
  return { config, warnings }
}
const fails = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(PorticoError)
    return e as PorticoError
  }
  throw new Error('expected an error')
}

describe('config: app id', () => {
  it('accepts exactly 25 characters', () => expect(validateAppId(appId)).toBe(appId))
  for (const bad of ['', 'short', appId + 'x', appId.slice(1), undefined, 25, null]) {
    it(`refuses ${JSON.stringify(bad)} with the spec text`, () => {
      const e = fails(() => validateAppId(bad))
      expect(e.code).toBe('invalid_config')
      expect(e.message).toBe('The app ID must be a string of exactly 25 characters.')
    })
  }
})

describe('config: login methods', () => {
  it('merges host over server: the host list wins', () => {
    expect(resolve({ loginMethods: ['sms', 'email'] }).config.loginMethods).toEqual(['sms', 'email'])
    expect(resolve({}, server({ login_methods: ['wallet', 'email'] })).config.loginMethods).toEqual(['wallet', 'email'])
  })
  it("fails with 'You must enable at least one login method'", () => {
    const e = fails(() => resolve({ loginMethods: [] }))
    expect(e.message).toBe('You must enable at least one login method')
    expect(e.code).toBe('invalid_config')
    expect(fails(() => resolve({}, server({ login_methods: [] }))).message).toBe('You must enable at least one login method')
  })
  it('can defer the login-method check until the server config is merged (kernel start-up)', () => {
    const config = resolveConfig({ appId } as PorticoConfig, null, undefined, { requireLoginMethod: false })
    expect(config.loginMethods).toEqual([])
  })
  it('ignores duplicates with a warning', () => {
    const { config, warnings } = resolve({ loginMethods: ['email', 'sms', 'email'] })
    expect(config.loginMethods).toEqual(['email', 'sms'])
    expect(warnings).toEqual([CONFIG_TEXTS.duplicate('email')])
  })
  it('warns in development builds only; production builds still drop the duplicate', () => {
    vi.stubEnv('NODE_ENV', 'production')
    try {
      const { config, warnings } = resolve({ loginMethods: ['email', 'sms', 'email'], appearance: { loginMessage: 'x'.repeat(130) } })
      expect(config.loginMethods).toEqual(['email', 'sms'])
      expect(config.appearance.loginMessage).toHaveLength(LOGIN_MESSAGE_MAX)
      expect(warnings).toEqual([])
    } finally {
      vi.unstubAllEnvs()
    }
  })
  it('warns (only) above 4 primary methods, and drops overflow entries already primary', () => {
    const { config, warnings } = resolve({
      loginMethodsAndOrder: { primary: ['email', 'sms', 'google', 'apple', 'wallet'], overflow: ['email', 'github'] },
    })
    expect(config.loginMethodsAndOrder).toEqual({ primary: ['email', 'sms', 'google', 'apple', 'wallet'], overflow: ['github'] })
    expect(config.loginMethods).toEqual(['email', 'sms', 'google', 'apple', 'wallet', 'github'])
    expect(warnings).toEqual([CONFIG_TEXTS.tooManyPrimary(5)])
    expect(resolve({ loginMethodsAndOrder: { primary: ['email', 'sms', 'google', 'apple'] } }).warnings).toEqual([])
  })
})

describe('config: appearance', () => {
  it('cuts the login message to 100 characters with a warning', () => {
    const long = 'x'.repeat(130)
    const { config, warnings } = resolve({ appearance: { loginMessage: long } })
    expect(config.appearance.loginMessage).toBe('x'.repeat(100))
    expect(warnings).toEqual([CONFIG_TEXTS.loginMessageCut])
    expect(CONFIG_TEXTS.loginMessageCut).toContain(` ${LOGIN_MESSAGE_MAX} characters`)
    expect(resolve({ appearance: { loginMessage: 'x'.repeat(100) } }).warnings).toEqual([])
  })
  it("defaults the header to 'Log in or sign up' and takes landingHeader", () => {
    expect(resolve({}).config.appearance.landingHeader).toBe('Log in or sign up')
    expect(resolve({ appearance: { landingHeader: 'Welcome' } }).config.appearance.landingHeader).toBe('Welcome')
  })
  it('takes a logo string or an img/svg element; anything else shows nothing, with a warning', () => {
    expect(resolve({ appearance: { logo: '/logo.png' } }).config.appearance.logo).toBe('/logo.png')
    expect(resolve({ appearance: { logo: { tagName: 'IMG' } } }).config.appearance.logo).toEqual({ tagName: 'IMG' })
    expect(resolve({ appearance: { logo: { tagName: 'svg' } } }).config.appearance.logo).toEqual({ tagName: 'svg' })
    const { config, warnings } = resolve({ appearance: { logo: { tagName: 'DIV' } } })
    expect(config.appearance.logo).toBeUndefined()
    expect(warnings).toEqual([CONFIG_TEXTS.badLogo])
    expect(resolve({ appearance: { logo: 42 as never } }).config.appearance.logo).toBeUndefined()
  })
  it('takes theme, accent and legal from the server unless the host says otherwise', () => {
    const s = server({
      theme: 'dark',
      accent_color: '#ff0000',
      legal: { terms_and_conditions_url: 'https://t', privacy_policy_url: 'https://p', require_users_accept_terms: true },
      allowlist_config: { error_title: 'Nope' },
    })
    const { config } = resolve({ appearance: { accentColor: '#00ff00' } }, s)
    expect(config.appearance.theme).toBe('dark')
    expect(config.appearance.accentColor).toBe('#00ff00')
    expect(config.legal).toEqual({
      termsAndConditionsUrl: 'https://t',
      privacyPolicyUrl: 'https://p',
      requireUsersAcceptTerms: true,
      alwaysShowFooter: false,
    })
    expect(config.allowlistConfig.errorTitle).toBe('Nope')
    expect(config.intl.defaultCountry).toBe('US')
  })
})

describe('config: chains', () => {
  it('defaults to Ethereum mainnet', () => {
    expect(resolve({}).config.supportedChains).toEqual([MAINNET])
    expect(resolve({}).config.defaultChain).toEqual(MAINNET)
  })
  it('refuses an empty list', () => {
    expect(fails(() => resolve({ supportedChains: [] })).message).toBe(CONFIG_TEXTS.emptyChains)
  })
  it('refuses a list without the default chain', () => {
    expect(fails(() => resolve({ supportedChains: [{ id: 137, name: 'Polygon' }] })).message).toBe(
      CONFIG_TEXTS.missingDefaultChain,
    )
    expect(resolve({ supportedChains: [{ id: 137, name: 'Polygon' }, MAINNET] }).config.supportedChains).toHaveLength(2)
  })
})

describe('config: plugin options and base URL', () => {
  it('keeps unknown keys as plugin options and trims the API URL', () => {
    const { config } = resolve({ apiUrl: 'http://x.test///', email: { disableSignup: true } })
    expect(config.apiUrl).toBe('http://x.test')
    expect(config.extra).toEqual({ email: { disableSignup: true } })
  })
})
