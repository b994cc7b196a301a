/**
 * portico/kits/funding — what the funding plugin (portico/plugins/funding) and the funding
 * providers (moonpay, coinbase-onramp, bridge, third parties) share (spec part 2 sections 3
 * 'Funding request', 4 'Funding', 8 and 9): the request and its resolved form, the method
 * registry entry (`FundingMethod`, listed through the kernel's `fundingMethods` hook), the
 * on-ramp popup, a status poller and the on-ramp status screen body, amounts in base units,
 * chain reads, and sending from an EVM or Solana wallet. A kit, not a plugin. See ./README.md.
 *
 * The chain reads and the transfers load on first use: an entry that imports this stays small.
 */
export { sanitizeAmount, isPositiveAmount, toBaseUnits, formatTokenAmount } from './amount'
export { isUserRejection, rejectedError, notEnoughFundsError, type TransferTexts } from './errors'
export { listFundingMethods } from './methods'
export type { FundingMethod, ListedMethod } from './methods'
export { openFundingPopup } from './popup'
export type { FundingPopup } from './popup'
export { poll } from './poll'
export type { Poll, PollOptions } from './poll'
export { resolveRequest, completeChain, clusterLabel } from './request'
export type {
  FundingRequest,
  ResolvedFundingRequest,
  FundingChain,
  SolanaCluster,
  SolanaClusterName,
  FundingOption,
  FundingMethodKind,
  WireFundingConfig,
} from './request'
export { OnrampStatus } from './onramp-status'
export type { OnrampStatusProps, OnrampRun, OnrampView } from './onramp-status'
export type { SolanaSender } from './transfer-solana'
export type { RelaySolanaStepData, RelaySolanaInstruction } from './solana-tx'
export type { Eip1193, TransferStatus } from './transfer'

type Chain = typeof import('./chain')
type Transfer = typeof import('./transfer')
/** `name` of a module loaded on first call: the same signature, the module out of the initial load. */
const later =
  <M, K extends keyof M>(load: () => Promise<M>, name: K) =>
  async (...a: unknown[]) =>
    ((await load())[name] as (...a: unknown[]) => unknown)(...a)
const chain = () => import('./chain')
const transfer = () => import('./transfer')

/** JSON-RPC reads (./chain.ts, loaded on first use). */
export const rpcCall = later(chain, 'rpcCall') as Chain['rpcCall']
export const evmBalance = later(chain, 'evmBalance') as Chain['evmBalance']
export const solanaBalance = later(chain, 'solanaBalance') as Chain['solanaBalance']
export const requestBalance = later(chain, 'requestBalance') as Chain['requestBalance']
export const waitForReceipt = later(chain, 'waitForReceipt') as Chain['waitForReceipt']
/** Sending from an EVM wallet (./transfer.ts, loaded on first use). */
export const transferFromWallet = later(transfer, 'transferFromWallet') as Transfer['transferFromWallet']
export const switchChain = later(transfer, 'switchChain') as Transfer['switchChain']
/**
 * Sending from a Solana wallet (`transferFromSolanaWallet`, `sendWithSolanaWallet`,
 * `waitForSignature`, `standardChain`, `rpcSender`), loaded on use so the entry stays small.
 */
export const loadSolanaTransfer = () => import('./transfer-solana')
/** The Solana transaction builders (with @solana/web3.js), loaded on use. */
export const loadSolanaTransactions = () => import('./solana-tx')
