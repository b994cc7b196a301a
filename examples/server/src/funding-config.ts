/**
 * Funding settings of an app (apps.json `funding`, spec part 2 section 3 'App configuration':
 * methods, options, default recommended amount and currency, prompt on wallet creation,
 * cross-chain bridging, fundingMethodConfig.moonpay {useSandbox, paymentMethod}) and the
 * providers' keys and base URLs.
 *
 * Secrets never live in apps.json: `secretKeyEnv` / `apiKeySecretEnv` name environment
 * variables; in development mode an unset variable falls back to the dev default below (the
 * local stand-ins accept it). `fundingWire` is what the browser sees: no secret, only the
 * publishable MoonPay keys and the base URLs.
 */
import { z } from 'zod'

/** Development-only defaults, accepted by the stand-ins in examples/stand-ins/. Never for production. */
export const DEV_FUNDING = {
  moonpay: {
    apiKey: 'pk_live_portico_dev',
    sandboxApiKey: 'pk_test_portico_dev',
    secretKey: 'sk_live_portico_dev_moonpay_secret',
    sandboxSecretKey: 'sk_test_portico_dev_moonpay_secret',
  },
  coinbase: {
    projectId: 'portico-dev-coinbase-project',
    apiKeyName: 'organizations/portico-dev/apiKeys/portico-dev-key',
    /** A P-256 key (SEC1 PEM), as CDP hands out ECDSA API keys. Public half: DEV_COINBASE_PUBLIC_JWK. */
    apiKeySecret: `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIFI2xTvpce7bdqN9EXRejI4nS6zqFh9cweQ0zV/bWj++oAoGCCqGSM49
AwEHoUQDQgAEDcwt3t/kKmb5jFdxtSEYt2hIFmz+8kJtAb+EMihXRiXQtey/hCFE
OuiN20lAd9GWFeMplpMkdJ6NLmD5JI3dEQ==
-----END EC PRIVATE KEY-----
`,
  },
} as const

export const DEV_COINBASE_PUBLIC_JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: 'Dcwt3t_kKmb5jFdxtSEYt2hIFmz-8kJtAb-EMihXRiU',
  y: '0LXsv4QhRDrojdtJQHfRlhXjKZaTJHSejS5g-SSN3RE',
} as const

/** The providers' documented hosts (overridable per app). */
export const PROVIDER_URLS = {
  moonpayWidget: 'https://buy.moonpay.com',
  moonpaySandboxWidget: 'https://buy-sandbox.moonpay.com',
  moonpayApi: 'https://api.moonpay.com',
  coinbaseApi: 'https://api.developer.coinbase.com',
  coinbasePay: 'https://pay.coinbase.com',
  bridgeApi: 'https://api.relay.link',
  bridgeTestnetApi: 'https://api.testnets.relay.link',
} as const

const url = z.url().max(2048).optional()
const envName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name').optional()

export const fundingSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** card, exchange, wallet, manual (spec: defaultFundingMethod values). */
    methods: z.array(z.enum(['card', 'exchange', 'wallet', 'manual'])).optional(),
    options: z.array(z.object({ method: z.string(), provider: z.string().optional() })).optional(),
    defaultRecommendedAmount: z.string().regex(/^\d+(\.\d+)?$/).optional(),
    defaultRecommendedCurrency: z.object({ chain: z.string(), asset: z.string().optional() }).optional(),
    promptFundingOnWalletCreation: z.boolean().optional(),
    crossChainBridgingEnabled: z.boolean().optional(),
    moonpay: z
      .object({
        useSandbox: z.boolean().default(false),
        paymentMethod: z.string().max(64).optional(),
        apiKey: z.string().max(256).optional(),
        sandboxApiKey: z.string().max(256).optional(),
        secretKeyEnv: envName,
        sandboxSecretKeyEnv: envName,
        widgetUrl: url,
        sandboxWidgetUrl: url,
        apiUrl: url,
        sandboxApiUrl: url,
      })
      .optional(),
    coinbase: z
      .object({
        projectId: z.string().max(256).optional(),
        apiKeyName: z.string().max(512).optional(),
        apiKeySecretEnv: envName,
        apiUrl: url,
        payUrl: url,
      })
      .optional(),
    bridge: z.object({ apiUrl: url, testnetApiUrl: url }).optional(),
  })
  .nullish()

export type FundingSettings = NonNullable<z.infer<typeof fundingSchema>>

/** The app's funding settings, validated (null when funding is off or absent). */
export function fundingOf(app: { funding?: unknown }): FundingSettings | null {
  const r = fundingSchema.safeParse(app.funding ?? null)
  if (!r.success || !r.data || !r.data.enabled) return null
  return r.data
}

/** What GET /apps/{id} carries as `funding_config`: nothing secret. */
export function fundingWire(app: { funding?: unknown }): Record<string, unknown> | null {
  const f = fundingOf(app)
  if (!f) return null
  const m = f.moonpay
  return {
    methods: f.methods ?? ['card', 'exchange', 'wallet', 'manual'],
    options: f.options ?? [],
    default_recommended_amount: f.defaultRecommendedAmount ?? null,
    default_recommended_currency: f.defaultRecommendedCurrency ?? null,
    prompt_funding_on_wallet_creation: !!f.promptFundingOnWalletCreation,
    cross_chain_bridging_enabled: !!f.crossChainBridgingEnabled,
    moonpay: m
      ? {
          use_sandbox: m.useSandbox,
          payment_method: m.paymentMethod ?? null,
          api_key: m.apiKey ?? DEV_FUNDING.moonpay.apiKey,
          sandbox_api_key: m.sandboxApiKey ?? DEV_FUNDING.moonpay.sandboxApiKey,
          api_url: m.apiUrl ?? PROVIDER_URLS.moonpayApi,
          sandbox_api_url: m.sandboxApiUrl ?? m.apiUrl ?? PROVIDER_URLS.moonpayApi,
        }
      : null,
    coinbase: f.coinbase ? { pay_url: f.coinbase.payUrl ?? PROVIDER_URLS.coinbasePay } : null,
    bridge: {
      api_url: f.bridge?.apiUrl ?? PROVIDER_URLS.bridgeApi,
      testnet_api_url: f.bridge?.testnetApiUrl ?? PROVIDER_URLS.bridgeTestnetApi,
    },
  }
}
