/** @solana/web3.js expects Node's `Buffer` in the page: the `buffer` package (its own dependency) stands in. Loaded with the Solana engine only. */
import { Buffer } from 'buffer'

const g = globalThis as { Buffer?: typeof Buffer }
g.Buffer ??= Buffer
