/**
 * Size budgets in gzip bytes (KiB = 1024 bytes). Sizes are deterministic, so a budget is a
 * fair test; `test/bench/size.test.ts` fails `npm test` when one is exceeded. Raise a budget
 * only with a reason in the commit message.
 */
export const KIB = 1024

export const budgets = {
  /**
   * The kernel entry alone, with tapable's Hook and mitt. 12 -> 14 KiB with contract v2: the
   * plugin runtime (stores, APIs, method and error declarations, texts, teardown of taps),
   * the start-up return path and retry moved into the kernel what every plugin re-implemented.
   */
  kernel: 14 * KIB,
  /** examples/minimal (e-mail only): entry and its static imports, React excluded. */
  minimalInitial: 30 * KIB,
  /** Each plugin entry alone (kernel and ui external, shared); lazy screens not counted. */
  plugins: {
    email: 6 * KIB,
    guest: 3 * KIB,
    'custom-auth': 3 * KIB,
    sms: 50 * KIB, // libphonenumber-js metadata
    siwe: 3 * KIB, // viem and the message builder load when a wallet is picked
    siws: 3 * KIB,
    wallet: 6 * KIB, // the shared wallet base (landing entry, connector registry, errors)
    passkey: 4 * KIB, // @simplewebauthn/browser loads when a passkey is used
  } as Record<string, number>,
  /** A plugin not listed above. */
  defaultPlugin: 8 * KIB,
}
