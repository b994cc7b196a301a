/** Texts of the standard chips (part 1 section 2). */
export const CHIP_TEXTS = { recent: 'Recent', connect: 'Connect', solana: 'Solana' } as const
