/**
 * The wire the server shares with the client and the wallet frame: types only (kernel/wire.ts
 * is the contract's one description), plus the constants the custody and password protocols
 * fix. Nothing here imports server code; the frame imports from here and its own folder only.
 */
export type * from '../../../../kernel/wire'
export type { WireErrorCode } from './errors'
