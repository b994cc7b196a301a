/**
 * Amount rules (spec part 2 section 5 'Funding rules'): the input keeps digits and at most one
 * dot; a leading dot becomes '0.'; Continue needs an amount above 0. Decimal strings convert to
 * base units without floating point ('Number is not a valid decimal number' otherwise).
 */

/** What the amount field keeps of what was typed. */
export function sanitizeAmount(raw: string): string {
  let out = ''
  let dot = false
  for (const ch of raw) {
    if (ch >= '0' && ch <= '9') out += ch
    else if ((ch === '.' || ch === ',') && !dot) {
      dot = true
      out += '.'
    }
  }
  return out.startsWith('.') ? `0${out}` : out
}

/** Continue is enabled only for an amount above 0. */
export function isPositiveAmount(amount: string): boolean {
  return /^\d*\.?\d*$/.test(amount) && /[1-9]/.test(amount)
}

const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/

/** '0.05' with 18 decimals → 50000000000000000n. Throws `invalid` for anything that is not a plain decimal. */
export function toBaseUnits(amount: string, decimals: number, invalid: () => Error = () => new Error('Number is not a valid decimal number')): bigint {
  const m = DECIMAL.exec(amount.trim())
  if (!m) throw invalid()
  const whole = m[1] ?? '0'
  const frac = (m[2] ?? m[3] ?? '').slice(0, decimals).padEnd(decimals, '0')
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac || '0')
}

/** 50000000000000000n with 18 decimals → '0.05' (no trailing zeros). */
export function fromBaseUnits(value: bigint, decimals: number): string {
  const neg = value < 0n
  const v = neg ? -value : value
  const base = 10n ** BigInt(decimals)
  const whole = v / base
  const frac = (v % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`
}

/**
 * Token amounts for display (spec section 9): 3 decimals (USDC 6 shown as 2+, SOL 6), '<0.001'
 * for tiny non-zero values.
 */
export function formatTokenAmount(value: bigint, decimals: number, shown = 3): string {
  if (value === 0n) return '0'
  const s = fromBaseUnits(value, decimals)
  const [w, f = ''] = s.split('.')
  const cut = f.slice(0, shown).replace(/0+$/, '')
  if (w === '0' && !cut) return `<0.${'0'.repeat(shown - 1)}1`
  return cut ? `${w}.${cut}` : w
}

/** The ERC-20 `transfer(to, value)` calldata. */
export function erc20TransferData(to: string, value: bigint): string {
  return `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${value.toString(16).padStart(64, '0')}`
}
