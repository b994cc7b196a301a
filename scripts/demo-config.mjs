/**
 * The demo's addresses and environment, in one place: `npm start` (scripts/start.mjs) runs from
 * it, and scripts/demo-config.test.ts checks it against the server's app settings.
 *
 * Default, one site: the app, the API and the wallet frame on http://localhost (ports differ;
 * a site is scheme + registrable domain, so they are same-site). Passkeys work there (a WebAuthn
 * relying party must be a domain; 127.0.0.1 cannot be one) and the wallet frame is not a
 * third-party frame, so its storage is not partitioned.
 *
 * `crossSite: true` (`npm start -- --cross-site`, or PORTICO_DEMO_CROSS_SITE=1): the app on
 * http://localhost, the API and the frame on http://127.0.0.1: the frame is then a third-party
 * frame, as a wallet service on another domain is, to see how storage partitioning is handled.
 *
 * The outside services' stand-ins (chains, OAuth, cloud drive, funding, WalletConnect relay) keep
 * 127.0.0.1: they are other parties anyway.
 */

export const DEMO_PORTS = Object.freeze({
  app: 5173,
  api: 8787,
  frame: 8788,
  acmeId: 8791,
  idp: 8792,
  cloudDrive: 8793,
  moonpay: 8794,
  coinbase: 8795,
  bridge: 8796,
  price: 8797,
  wcRelay: 8798,
  farcasterClient: 8799,
  evm: 8545,
  bundler: 4337,
  svm: 8899,
})

/**
 * Farcaster signers in the demo (issue 30), development values only: the IdRegistry the
 * Farcaster client API stand-in deploys on the local chain (a deployer derived from the label
 * 'portico-demo-idregistry-deployer', nonce 0), the demo app's FID and its custody key
 * (keccak256 of 'portico-demo-farcaster-app-custody': public, never a production key).
 */
export const DEMO_FARCASTER = Object.freeze({
  idRegistry: '0x3fe008A360C619C222Bc33B9562FBac75264Ab72',
  appFid: 1,
  appCustodyKey: '0xd5d1cfb29d1d2b47ccb0bdc05acbf465c7315c34d9a170ad3111b3409e703293',
})

/**
 * Smart wallets in the demo (issue 29), development values only: the local chain on 8545 is
 * the ERC-4337 stack's anvil (examples/stand-ins/aa/stack.ts: EntryPoint v0.7 and v0.8, Safe
 * 1.4.1 with its 4337 module, Simple7702Account, the VerifyingPaymasters, Alto on 4337). Every
 * address is deterministic (CREATE2): the paymasters' follow from the signer key, which is
 * keccak256 of 'portico-demo-paymaster-signer' — public, never a production key (the server
 * accepts an inline key in development mode only). scripts/demo-config.test.ts proves them.
 */
export const DEMO_AA = Object.freeze({
  paymasterKey: '0x752de0392a1a1f4c3727615ab087a4ec5dc693af67b9d86bc248f3abeee3b183',
  paymaster: '0x067Ad069e1656f163992D19F26899980792fA5b5',
  paymaster08: '0x6D210DEe55E68Be11cCcDC82265CFF3Ca358b58F',
  safe: Object.freeze({
    safeSingletonAddress: '0x76667330c237Fb40f28d74563cdAAae4b06C23Ec',
    safeProxyFactoryAddress: '0xd9d2Ba03a7754250FDD71333F444636471CACBC4',
    multiSendAddress: '0x7B21BBDBdE8D01Df591fdc2dc0bE9956Dde1e16C',
    multiSendCallOnlyAddress: '0x32228dDEA8b9A2bd7f2d71A958fF241D79ca5eEC',
    safe4337ModuleAddress: '0x75cf11467937ce3F2f357CE24ffc3DBF8fD5c226',
    safeModuleSetupAddress: '0x2dd68b007B46fBe91B9A7c3EDa5A7a1063cB5b47',
  }),
})

/** The demo app's `smartWallets` settings (added to its apps.json entry by `npm start`; see demoApps). */
export function demoSmartWallets(urls) {
  return {
    enabled: true,
    type: 'safe',
    version: '1.4.1',
    networks: [{ chainId: 31337, bundlerUrl: urls.bundler, paymasterUrl: `${urls.api}/api/v1/paymaster`, rpcUrl: urls.evm, paymasterAddress: DEMO_AA.paymaster, paymasterAddress08: DEMO_AA.paymaster08 }],
    paymaster: { signerKey: DEMO_AA.paymasterKey, policy: { chains: [31337], dailyLimitPerUser: 50 } },
  }
}

/**
 * The apps `npm start` gives the server: apps.json with the demo app's smart wallets on the
 * local stack (development values that apps.json, which production-mode tests load too, must not
 * hold).
 * @param {{ apps: Record<string, unknown>[] }} file  apps.json's content
 * @param {Record<string, string>} urls
 */
export function demoApps(file, urls) {
  return { ...file, apps: file.apps.map((a) => (a.id === 'portico-demo-app-00000001' ? { ...a, smartWallets: demoSmartWallets(urls) } : a)) }
}

/** Every process of the demo listens on this address; `localhost` reaches it too. */
export const LISTEN_HOST = '127.0.0.1'

/**
 * @param {{ crossSite?: boolean }} [options]
 */
export function demoConfig(options = {}) {
  const crossSite = !!options.crossSite
  const P = DEMO_PORTS
  const site = 'localhost'
  const serviceHost = crossSite ? '127.0.0.1' : site
  const local = (port) => `http://${LISTEN_HOST}:${port}`
  const urls = {
    app: `http://${site}:${P.app}`,
    api: `http://${serviceHost}:${P.api}`,
    frame: `http://${serviceHost}:${P.frame}`,
    idp: local(P.idp),
    acmeId: local(P.acmeId),
    cloudDrive: local(P.cloudDrive),
    moonpay: local(P.moonpay),
    coinbase: local(P.coinbase),
    bridge: local(P.bridge),
    price: local(P.price),
    wcRelay: `ws://${LISTEN_HOST}:${P.wcRelay}`,
    farcasterClient: local(P.farcasterClient),
    evm: local(P.evm),
    bundler: local(P.bundler),
    svm: local(P.svm),
  }
  return {
    crossSite,
    site,
    ports: P,
    listenHost: LISTEN_HOST,
    urls,
    /** The reference server's environment (its public URLs are the ones the browser uses). */
    serverEnv: {
      PORT: String(P.api),
      HOST: LISTEN_HOST,
      PORTICO_PUBLIC_URL: urls.api,
      PORTICO_FRAME_PORT: String(P.frame),
      PORTICO_FRAME_URL: urls.frame,
      // Farcaster (login's custody lookups and signers) on the local chain and the client API stand-in.
      PORTICO_FARCASTER_RPC_URL: urls.evm,
      PORTICO_FARCASTER_ID_REGISTRY: DEMO_FARCASTER.idRegistry,
      PORTICO_FARCASTER_CLIENT_API_URL: urls.farcasterClient,
      PORTICO_FARCASTER_APP_CUSTODY_KEY: DEMO_FARCASTER.appCustodyKey,
    },
    /** Build-time variables of the demo app (examples/app/src/settings.ts reads them). */
    appEnv: {
      VITE_PORTICO_API_URL: urls.api,
      VITE_PORTICO_FRAME_URL: urls.frame,
      // The demo creates embedded wallets on login.
      VITE_PORTICO_CREATE_ON_LOGIN: 'users-without-wallets',
      // Smart wallets (?sw=1): the Safe contracts of the local stack.
      VITE_PORTICO_SAFE_CONTRACTS: JSON.stringify(DEMO_AA.safe),
    },
    /** Where iCloud's sign-in returns (the cloud-drive stand-in's CloudKit callback). */
    cloudKitSignInCallback: `${urls.app}/?portico_recovery_popup=icloud`,
    /** What answers once the demo is up: name → URL to GET (2xx expected). */
    health: {
      app: `${urls.app}/`,
      api: `${urls.api}/health`,
      frame: `${urls.frame}/health`,
    },
  }
}

/** `--cross-site` on the command line or PORTICO_DEMO_CROSS_SITE=1. */
export function crossSiteRequested(argv = process.argv.slice(2), env = process.env) {
  return argv.includes('--cross-site') || ['1', 'true', 'yes'].includes(String(env.PORTICO_DEMO_CROSS_SITE ?? '').toLowerCase())
}
