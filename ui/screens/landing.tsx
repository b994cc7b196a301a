/**
 * The landing screen (part 1 section 2): the plugins' entries (`loginMethods` hook) filtered
 * and ordered by config, in two groups (web2 / web3 by `loginGroupPriority`) or one list with a
 * 'More options' overflow (`loginMethodsAndOrder`). At most 5 rows show, 4 with an overflow.
 */
import { useLayoutEffect, useMemo, useRef, useState, type ComponentType } from 'react'
import type { LoginMethod, Portico, ScreenDefinition } from 'portico'
import { isRecentEntry } from 'portico'
import { Chip } from '../components/chip'
import { ListButton } from '../components/list-button'
import { ScreenLayout } from '../components/layout'
import { MoreIcon } from '../components/icons'
import { loginEntries, useKernel, useTexts } from '../context'
import { UI_TEXTS } from '../strings'

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

function Logo({ logo, name }: { logo: unknown; name: string }) {
  const ref = useRef<HTMLSpanElement>(null)
  useLayoutEffect(() => {
    const host = ref.current
    if (!host || typeof logo === 'string' || !logo || typeof (logo as Node).cloneNode !== 'function') return
    const copy = (logo as Node).cloneNode(true)
    host.replaceChildren(copy)
    return () => host.replaceChildren()
  }, [logo])
  if (typeof logo === 'string') return <img className="portico-logo" src={logo} alt={`${name} logo`} />
  if (logo && typeof logo === 'object') return <span className="portico-logo" ref={ref} />
  return null
}

function EntryIcon({ icon, label }: { icon: unknown; label: string }) {
  if (typeof icon === 'string') return <img src={icon} alt="" width={20} height={20} />
  if (typeof icon === 'function' || (icon && typeof icon === 'object' && '$$typeof' in icon)) {
    const Icon = icon as ComponentType
    return <Icon />
  }
  // No icon given: the label's initial.
  return <span className="portico-list-initial">{label.trim().charAt(0).toUpperCase()}</span>
}

export function LegalLine({ kernel }: { kernel: Portico }) {
  const uiTexts = useTexts('ui', UI_TEXTS)
  const legal = kernel.config.legal
  const terms = legal.termsAndConditionsUrl
  const privacy = legal.privacyPolicyUrl
  if (!terms && !privacy) return null
  if (legal.requireUsersAcceptTerms && !legal.alwaysShowFooter) return null
  return (
    <p className="portico-legal" data-portico-legal="">
      {uiTexts.legalLine}{' '}
      {terms ? (
        <a href={terms} target="_blank" rel="noopener noreferrer">
          {uiTexts.terms}
        </a>
      ) : (
        uiTexts.terms
      )}{' '}
      {uiTexts.and}{' '}
      {privacy ? (
        <a href={privacy} target="_blank" rel="noopener noreferrer">
          {uiTexts.privacyPolicy}
        </a>
      ) : (
        uiTexts.privacyPolicy
      )}
    </p>
  )
}

export function Landing() {
  const uiTexts = useTexts('ui', UI_TEXTS)
  const kernel = useKernel()
  const [view, setView] = useState<LandingView>('default')
  const recent = kernel.recentLogin()?.method ?? null
  const config = kernel.config
  const entries = useMemo(() => loginEntries(kernel), [kernel, config])
  const plan = useMemo(() => planLanding(entries, kernel, recent), [entries, kernel, recent])

  const choose = (e: LoginMethod) => {
    if (e.start) {
      Promise.resolve(e.start()).catch((err) => kernel.screens.error(err, { method: e.id }))
    } else if (e.screen) void kernel.screens.open(e.screen, e.params ?? {})
  }
  const row = (e: LoginMethod) => (
    <li key={e.id}>
      <ListButton
        method={e.id}
        icon={<EntryIcon icon={e.icon} label={e.label} />}
        label={e.label}
        chip={isRecentEntry(e, recent) ? <Chip tone="accent">{uiTexts.recent}</Chip> : undefined}
        onClick={() => choose(e)}
      />
    </li>
  )

  if (view !== 'default') {
    return (
      <ScreenLayout title={config.appearance.landingHeader} back={() => setView('default')}>
        <div className="portico-landing" data-view={view}>
          <ul className="portico-list portico-scroll" data-portico-overflow="">
            {plan.overflow.map(row)}
          </ul>
        </div>
      </ScreenLayout>
    )
  }

  const logo = config.appearance.logo
  return (
    <ScreenLayout
      title={config.appearance.landingHeader}
      icon={logo ? <Logo logo={logo} name={config.name} /> : undefined}
      description={config.appearance.loginMessage || undefined}
      footer={<LegalLine kernel={kernel} />}
    >
      <div className="portico-landing" data-view="default" data-layout={plan.layout}>
        <div className="portico-scroll">
          {plan.groups.map((g, i) => (
            <div key={g.group} className="portico-group" data-group={g.group} data-portico-slot={g.group === 'web3' ? 'web3' : undefined}>
              {i > 0 ? <hr className="portico-divider" /> : null}
              {g.input ? (
                <div className="portico-landing-input" data-method={g.input.id}>
                  {(() => {
                    const Input = g.input.input as ComponentType<LoginInputProps>
                    return <Input entry={g.input} recent={isRecentEntry(g.input, recent)} />
                  })()}
                </div>
              ) : null}
              {g.rows.length ? <ul className="portico-list">{g.rows.map(row)}</ul> : null}
            </div>
          ))}
          {plan.overflow.length > 0 ? (
            <ul className="portico-list">
              <li>
                <ListButton method="more-options" icon={<MoreIcon />} label={uiTexts.moreOptions} onClick={() => setView(plan.overflowView)} />
              </li>
            </ul>
          ) : null}
        </div>
      </div>
    </ScreenLayout>
  )
}

export const landingScreen: ScreenDefinition = { id: 'landing', component: Landing }
