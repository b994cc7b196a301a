/**
 * The landing's pure layout (part 1 section 2): which entry is the inline input, which rows
 * show in which group, and what goes to 'More options'. No React: it is in the initial load
 * (`portico/ui`), while the landing screen itself loads lazily (preloaded at idle).
 */
import type { LoginMethod, Portico } from 'portico'
import { isRecentEntry } from 'portico'

export const MAX_ROWS = 5
export const MAX_ROWS_WITH_OVERFLOW = 4

/** Props of a plugin's inline landing input (`LoginMethod.input`). */
export interface LoginInputProps {
  entry: LoginMethod
  /** This method was used last: show the 'Recent' chip. */
  recent: boolean
}

export type LandingView = 'default' | 'overflow' | 'web2-overflow' | 'web3-overflow'

export interface LandingPlan {
  layout: 'groups' | 'list'
  /** The entry drawn as an inline input (e-mail or phone), if any. */
  input: LoginMethod | null
  /** Visible rows in order; `group` tells which group each belongs to. */
  groups: { group: 'web2' | 'web3' | 'list'; rows: LoginMethod[]; input?: LoginMethod | null }[]
  overflow: LoginMethod[]
  overflowView: LandingView
}

/**
 * Pure layout: which entry is the inline input, which rows show and which go to the overflow.
 * The editable input is the recent method's if it has one, else the first input entry in the
 * configured order (so SMS wins when listed earlier or recent).
 */
export function planLanding(entries: LoginMethod[], kernel: Pick<Portico, 'config'>, recent: string | null): LandingPlan {
  const cfg = kernel.config
  const hideInputs = cfg.appearance.hideDirectWeb2Inputs
  const pickInput = (list: LoginMethod[]) => {
    if (hideInputs) return null
    const withInput = list.filter((e) => e.input)
    return withInput.find((e) => isRecentEntry(e, recent)) ?? withInput[0] ?? null
  }
  const rowsOf = (list: LoginMethod[], input: LoginMethod | null) => list.filter((e) => e !== input && (e.screen || e.start))

  if (cfg.loginMethodsAndOrder) {
    const { primary, overflow } = cfg.loginMethodsAndOrder
    const primaryEntries = primary.map((id) => entries.find((e) => e.id === id)).filter((e): e is LoginMethod => !!e)
    const overflowEntries = overflow.map((id) => entries.find((e) => e.id === id)).filter((e): e is LoginMethod => !!e)
    const input = pickInput(primaryEntries)
    const rows = rowsOf(primaryEntries, input)
    const inputSlots = input ? 1 : 0
    const hasOverflow = overflowEntries.length > 0 || rows.length + inputSlots > MAX_ROWS
    const limit = (hasOverflow ? MAX_ROWS_WITH_OVERFLOW : MAX_ROWS) - inputSlots
    return {
      layout: 'list',
      input,
      groups: [{ group: 'list', rows: rows.slice(0, limit), input }],
      overflow: [...rows.slice(limit), ...rowsOf(overflowEntries, null)],
      overflowView: 'overflow',
    }
  }

  const web2 = entries.filter((e) => e.group === 'web2')
  const web3 = entries.filter((e) => e.group === 'web3')
  const input = pickInput(web2)
  const web2Rows = rowsOf(web2, input)
  const web3Rows = rowsOf(web3, null)
  const inputSlots = input ? 1 : 0
  const total = inputSlots + web2Rows.length + web3Rows.length
  const order: ('web2' | 'web3')[] = cfg.appearance.loginGroupPriority === 'web3-first' ? ['web3', 'web2'] : ['web2', 'web3']
  let visible2 = web2Rows
  let visible3 = web3Rows
  if (total > MAX_ROWS) {
    // The web3 group reserves one slot; the group shown first takes what is left.
    let slots = MAX_ROWS_WITH_OVERFLOW - inputSlots
    const reserve3 = web3Rows.length > 0 ? 1 : 0
    const reserve2 = web2Rows.length > 0 && order[0] === 'web3' ? 1 : 0
    if (order[0] === 'web2') {
      visible2 = web2Rows.slice(0, Math.max(0, slots - reserve3))
      slots -= visible2.length
      visible3 = web3Rows.slice(0, Math.max(0, slots))
    } else {
      visible3 = web3Rows.slice(0, Math.max(1, slots - reserve2))
      slots -= visible3.length
      visible2 = web2Rows.slice(0, Math.max(0, slots))
    }
  }
  const hidden2 = web2Rows.slice(visible2.length)
  const hidden3 = web3Rows.slice(visible3.length)
  const groups = order.map((g) => (g === 'web2' ? { group: g, rows: visible2, input } : { group: g, rows: visible3 }))
  return {
    layout: 'groups',
    input,
    groups: groups.filter((g) => g.rows.length > 0 || (g.group === 'web2' && input)),
    overflow: [...(order[0] === 'web2' ? [...hidden2, ...hidden3] : [...hidden3, ...hidden2])],
    overflowView: hidden2.length && hidden3.length ? 'overflow' : hidden2.length ? 'web2-overflow' : 'web3-overflow',
  }
}

