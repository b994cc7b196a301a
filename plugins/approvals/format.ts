/**
 * Amount formatting (part 2 section 9): token amounts with 3 decimals, USDC with its 6
 * on-chain decimals, SOL (9 decimals) with 6 shown, '<0.001' for tiny values; USD with 2
 * decimals and '<$0.01'; the decimal parser's 'Number is not a valid decimal number'.
 * Exact: integer arithmetic on bigint base units, never floating point for token amounts.
 */
import { PorticoError } from 'portico'

export const TOKEN_SHOWN_DECIMALS = 3
export const USDC_DECIMALS = 6
export const SOL_DECIMALS = 9
export const SOL_SHOWN_DECIMALS = 6
export const ETH_DECIMALS = 18
export const TINY = '<0.001'
export const TINY_USD = '<$0.01'
/** The decimal parser's message: APPROVALS_TEXTS.notDecimal, copied so the texts chunk shares no module with the entry (a test keeps them equal). */
export const NOT_DECIMAL = 'Number is not a valid decimal number'

/** Groups the integer part with commas: 1234567 → '1,234,567'. */
const group = (int: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')

/**
 * `value` base units with `decimals` on-chain decimals, rounded half up to `shown` fraction
 * digits, trailing zeros dropped. A non-zero value that rounds below the smallest shown step
 * under 0.001 shows '<0.001'.
 */
export function formatUnitsShown(value: bigint, decimals: number, shown: number): string {
  const negative = value < 0n
  let v = negative ? -value : value
  if (v === 0n) return '0'
  const base = 10n ** BigInt(decimals)
  // Below 0.001 of a whole unit: '<0.001' (part 2 section 9).
  if (v * 1000n < base) return negative ? `-${TINY}` : TINY
  if (shown < decimals) {
    const step = 10n ** BigInt(decimals - shown)
    v = ((v + step / 2n) / step) * step
  }
  const int = v / base
  let frac = (v % base).toString().padStart(decimals, '0').slice(0, Math.min(shown, decimals)).replace(/0+$/, '')
  if (!frac.length) frac = ''
  return `${negative ? '-' : ''}${group(int.toString())}${frac ? `.${frac}` : ''}`
}

/** An ERC-20 or SPL token amount: 3 decimals shown. */
export const formatTokenAmount = (value: bigint, decimals: number) => formatUnitsShown(value, decimals, TOKEN_SHOWN_DECIMALS)
/** USDC (6 on-chain decimals): 3 shown like every token. */
export const formatUsdc = (value: bigint) => formatUnitsShown(value, USDC_DECIMALS, TOKEN_SHOWN_DECIMALS)
/** SOL from lamports: 9 decimals, 6 shown. */
export const formatSol = (lamports: bigint) => formatUnitsShown(lamports, SOL_DECIMALS, SOL_SHOWN_DECIMALS)
/** A native EVM amount from wei (18 decimals, 3 shown like tokens). */
export const formatNative = (wei: bigint, decimals = ETH_DECIMALS) => formatUnitsShown(wei, decimals, TOKEN_SHOWN_DECIMALS)

/** US dollars: 2 decimals, '<$0.01' for tiny non-zero values, thousands grouped. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return '$0.00'
  if (usd > 0 && usd < 0.01) return TINY_USD
  const [int, frac] = Math.abs(usd).toFixed(2).split('.')
  return `${usd < 0 ? '-' : ''}$${group(int)}.${frac}`
}

/** The USD value of `value` base units at `usdPerUnit` (float is fine for display). */
export function toUsd(value: bigint, decimals: number, usdPerUnit: number): number {
  const base = 10 ** Math.min(decimals, 18)
  const scaled = decimals > 18 ? value / 10n ** BigInt(decimals - 18) : value
  return (Number(scaled) / base) * usdPerUnit
}

/**
 * Parses a decimal string ('1.5', '.25', '10') into base units with `decimals` decimals.
 * Throws 'Number is not a valid decimal number' for anything else or too many decimals.
 */
export function parseDecimal(text: string, decimals: number): bigint {
  const s = String(text).trim()
  const m = /^(\d*)(?:\.(\d*))?$/.exec(s)
  if (!m || (!m[1] && !m[2]) || (m[2] ?? '').length > decimals) {
    throw new PorticoError('invalid_decimal', NOT_DECIMAL, { kind: 'client_error' })
  }
  const frac = (m[2] ?? '').padEnd(decimals, '0')
  return BigInt(m[1] || '0') * 10n ** BigInt(decimals) + BigInt(frac || '0')
}

/** Shortens an address or hash for display: 0x1234…abcd. */
export const shorten = (s: string, head = 6, tail = 4) => (s.length <= head + tail + 1 ? s : `${s.slice(0, head)}…${s.slice(-tail)}`)

/**
 * `value` base units as a plain decimal string without grouping ('0.890005'), rounded UP to at
 * most `shown` fraction digits (default 6): an amount to add that covers what is missing
 * (amounts handed to other plugins, e.g. funding's).
 */
export function plainUnits(value: bigint, decimals: number, shown = 6): string {
  const negative = value < 0n
  let v = negative ? -value : value
  if (shown < decimals) {
    const step = 10n ** BigInt(decimals - shown)
    v = ((v + step - 1n) / step) * step
  }
  const base = 10n ** BigInt(decimals)
  const frac = (v % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return `${negative ? '-' : ''}${v / base}${frac ? `.${frac}` : ''}`
}
