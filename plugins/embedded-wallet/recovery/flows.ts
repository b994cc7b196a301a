/**
 * The recovery API's flows (`setWalletRecovery`, `recoverOnConnect`, `createWithRecovery`):
 * which screen to open for what, inside an open flow or as a flow of their own. Loaded with
 * the controller, on first use (./index.ts keeps the synchronous parts).
 */
import { PorticoError, type FlowResult, type Navigator } from 'portico'
import type { RecoverInput, RecoveryController } from './controller'
import { screenForMethod, type UserOwnedMethod } from './machine'
import { RECOVERY_SCREENS } from './ids'

export interface RecoveryFlows {
  setWalletRecovery(o?: { resetting?: boolean; options?: UserOwnedMethod[] }): Promise<FlowResult>
  recoverOnConnect(method: unknown, recover?: (input: RecoverInput) => Promise<void>, options?: { claim?: boolean }): Promise<FlowResult | null>
  createWithRecovery(o?: { options?: UserOwnedMethod[]; initiatedBy?: 'user' | 'automatic' }): Promise<FlowResult>
}

export function createRecoveryFlows(s: Navigator, c: RecoveryController): RecoveryFlows {
  /**
   * Its own flow when the modal is closed; inside an open flow (the login's chain) it replaces
   * the screen and resolves when done, or when that flow ends first (never waits forever).
   * A flow closed with × or Escape after its operation went through reports that success.
   */
  const open = async (id: string, params: Record<string, unknown>): Promise<FlowResult> => {
    const before = c.succeeded().count
    const settled = (r: FlowResult): FlowResult => (!r.ok && c.succeeded().count > before ? { ok: true, value: c.succeeded().value } : r)
    if (!s.getState().open) return settled(await s.open(id, { controller: c, ...params }, { intent: 'update' }))
    return new Promise<FlowResult>((resolve) => {
      let stop = () => {}
      let finished = false
      const done = (r: FlowResult) => {
        if (finished) return
        finished = true
        stop()
        resolve(settled(r))
      }
      stop = s.subscribe((nav) => {
        if (!nav.open) done({ ok: false, error: new PorticoError('exited_update_flow', 'User exited the update flow.') })
      })
      s.replace(id, { controller: c, ...params, onDone: done })
    })
  }
  return {
    async setWalletRecovery(o = {}) {
      const choice = c.chooseScreen({ creating: false, resetting: o.resetting, options: o.options })
      if (choice.screen === 'automatic') return open(RECOVERY_SCREENS.automatic, {})
      if (choice.screen === 'select') return open(RECOVERY_SCREENS.select, { options: choice.options, creating: false })
      // Create is used when creating a wallet, update otherwise (here: when a password is set already).
      const update = c.currentMethod() === 'user-passcode'
      const password = { purpose: 'set', mode: update ? 'update' : 'create', initiatedBy: 'user' }
      // The update splash comes first, unless the user is resetting.
      if (update && !choice.skipSplash) return open(RECOVERY_SCREENS.updateSplash, { password })
      return open(RECOVERY_SCREENS.password, password)
    },
    async recoverOnConnect(method, recover, options = {}) {
      const target = screenForMethod(method)
      switch (target.screen) {
        case 'silent':
          return null
        case 'password-recover':
          // A pre-generated wallet's claim: the same screen, asking for the claim code.
          return open(RECOVERY_SCREENS.recoverPassword, { recover, claim: options.claim === true })
        case 'cloud':
          return open(RECOVERY_SCREENS.cloud, { method: target.method, action: 'recover', recover })
        default:
          return open(RECOVERY_SCREENS.failure, {})
      }
    },
    async createWithRecovery(o = {}) {
      const choice = c.chooseScreen({ creating: true })
      const options = o.options ?? (choice.screen === 'select' ? choice.options : ['user-passcode'])
      if (options.length === 1 && options[0] === 'user-passcode') {
        const automatic = o.initiatedBy === 'automatic'
        return open(automatic ? RECOVERY_SCREENS.passwordRequired : RECOVERY_SCREENS.password, { purpose: 'create', mode: 'create', initiatedBy: o.initiatedBy ?? 'user' })
      }
      return open(RECOVERY_SCREENS.select, { options, creating: true })
    },
  }
}
