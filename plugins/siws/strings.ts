/**
 * The SIWS plugin's own texts (the wallet list and connection texts are the wallet base's
 * WALLET_TEXTS). Apps override them under `texts: { siws: {...} }`.
 */
export const SIWS_TEXTS = {
  /** The statement of the sign-in message. */
  statement:
    'By signing, you are proving you own this wallet and logging in. This does not initiate a transaction or cost any fees.',
} as const
