/** @solana/web3.js expects Node's `Buffer` in the page (loaded with the Solana buttons only). */
import { Buffer } from 'buffer'

const g = globalThis as { Buffer?: typeof Buffer }
g.Buffer ??= Buffer
