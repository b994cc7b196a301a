/**
 * The generated recovery passphrase (spec part 2 sections 5 and 9): 4 words drawn with the
 * platform CSPRNG (crypto.getRandomValues, rejection sampling: no modulo bias) from the BIP-39
 * English wordlist, which loads only when the user asks for one.
 */
export const PASSPHRASE_WORDS = 4
/** Words of a generated passphrase are joined with a character the rules allow (a space is not). */
export const PASSPHRASE_SEPARATOR = '-'

/** An unbiased index below `n` (2048) from the platform CSPRNG (rejection sampling over 16 bits). */
export function randomIndex(n: number, random: (a: Uint16Array) => Uint16Array = (a) => crypto.getRandomValues(a)): number {
  const limit = Math.floor(65536 / n) * n
  for (;;) {
    const [v] = random(new Uint16Array(1))
    if (v < limit) return v % n
  }
}

/** A 4-word passphrase from the BIP-39 English wordlist (loaded when asked for). */
export async function generatePassphrase(words = PASSPHRASE_WORDS): Promise<string> {
  const { wordlist } = await import('@scure/bip39/wordlists/english.js')
  return Array.from({ length: words }, () => wordlist[randomIndex(wordlist.length)]).join(PASSPHRASE_SEPARATOR)
}

