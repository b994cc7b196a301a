/**
 * Size budgets in gzip bytes (KiB = 1024 bytes). Sizes are deterministic, so a budget is a
 * fair test; `test/bench/size.test.ts` fails `npm test` when one is exceeded. Raise a budget
 * only with a reason in the commit message.
 */
export const KIB = 1024

export const budgets = {
  /** The kernel entry alone, with tapable's Hook and mitt. */
  kernel: 12 * KIB,
  /** examples/minimal (e-mail only): entry and its static imports, React excluded. */
  minimalInitial: 30 * KIB,
  /** Each plugin entry alone (kernel and ui external, shared); lazy screens not counted. */
  plugins: {
    email: 6 * KIB,
    guest: 3 * KIB,
    'custom-auth': 3 * KIB,
    sms: 50 * KIB, // libphonenumber-js metadata
    siwe: 52 * KIB, // viem (its wallet client loads lazily)
    siws: 20 * KIB,
  } as Record<string, number>,
  /** A plugin not listed above. */
  defaultPlugin: 8 * KIB,
}
