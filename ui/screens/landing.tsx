/**
 * The landing screen (part 1 section 2): the plugins' entries (`loginMethods` hook) filtered
 * and ordered by config, in two groups (web2 / web3 by `loginGroupPriority`) or one list with a
 * 'More options' overflow (`loginMethodsAndOrder`). At most 5 rows show, 4 with an overflow.
 */
import { useLayoutEffect, useMemo, useRef, useState, type ComponentType } from 'react'
import type { LoginMethod, Portico } from 'portico'
import { isRecentEntry } from 'portico'
import { Chip } from '../components/chip'
import { ListButton } from '../components/list-button'
import { ScreenLayout } from '../components/layout'
import { MoreIcon } from '../components/icons'
import { loginEntries, useKernel, useTexts } from '../context'
import { UI_TEXTS } from '../strings'
import { planLanding, type LandingView, type LoginInputProps } from './landing-plan'

export { planLanding, MAX_ROWS, MAX_ROWS_WITH_OVERFLOW } from './landing-plan'
export type { LoginInputProps, LandingPlan, LandingView } from './landing-plan'

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
  const [view, setViewState] = useState<LandingView>('default')
  // Switching views removes the focused button ('More options', Back): focus moves to the first
  // row of the overflow view, and back to 'More options' on return, never to the page's body.
  const landingRef = useRef<HTMLDivElement>(null)
  const switched = useRef(false)
  const setView = (v: LandingView) => {
    switched.current = true
    setViewState(v)
  }
  useLayoutEffect(() => {
    if (!switched.current) return
    switched.current = false
    const root = landingRef.current
    const target = view === 'default' ? root?.querySelector<HTMLElement>('[data-method=more-options]') : root?.querySelector<HTMLElement>('[data-portico-overflow] button')
    target?.focus()
  }, [view])
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
        <div className="portico-landing" data-view={view} ref={landingRef}>
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
      <div className="portico-landing" data-view="default" data-layout={plan.layout} ref={landingRef}>
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

/** For `import('./landing')`: the landing screen's module default. */
export default Landing
