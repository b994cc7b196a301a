/** React hooks of the MFA plugin: verification (screen or headless) and enrolment. */
import { useCallback, useEffect, useMemo, useRef } from 'react'
import { PorticoError, type User, type WireUser } from 'portico'
import { useKernel, usePlugin, useStore, useUser } from 'portico/ui'
import { methodPluginId, type MfaMethodPluginApi, type MfaType } from 'portico/kits/mfa'
import { MFA_METHOD_TYPES, type MfaListener, type MfaState } from './state'

/**
 * Verification, headless or with the screen: `mfaMethods` (the user's), `init(method)`,
 * `submit(method, code)`, `cancel()` and `state` (status, attempts, error, blocking).
 */
export function useMfa() {
  const api = usePlugin('mfa')
  const state: MfaState = useStore(api.state)
  const { user } = useUser()
  const mfaMethods = useMemo(() => (user?.mfaMethods ?? []).map((m) => m.type), [user])
  const init = useCallback((method: MfaType) => api.init(method), [api])
  const submit = useCallback((method: MfaType, code: string) => api.submit(method, code), [api])
  const cancel = useCallback(() => api.cancel(), [api])
  return { mfaMethods, init, submit, cancel, state }
}

/**
 * Headless verification: while mounted, a needed verification calls `onMfaRequired(methods)`
 * instead of showing the screen; supply the code with `useMfa().submit(method, code)`.
 */
export function useRegisterMfaListener(listener: MfaListener) {
  const api = usePlugin('mfa')
  const ref = useRef(listener)
  ref.current = listener
  useEffect(() => api.registerListener({ onMfaRequired: (m) => ref.current.onMfaRequired(m) }), [api])
}

/**
 * Enrolment: `showMfaEnrollmentModal()` opens the modal; headless `initEnrollment(method, …)`
 * / `submitEnrollment(method, …)` through the method's plugin; `unenroll(method)`; `list()`
 * the user's methods; `available` the methods this app enables (their plugins are set up).
 */
export function useMfaEnrollment() {
  const kernel = useKernel()
  const api = usePlugin('mfa')
  const { user } = useUser()
  const method = useCallback(
    (type: MfaType): MfaMethodPluginApi => {
      const id = methodPluginId(type)
      if (!kernel.hasPlugin(id)) throw new PorticoError('unsupported_mfa_method', 'Unsupported MFA method')
      return kernel.plugin<MfaMethodPluginApi>(id)
    },
    [kernel],
  )
  const showMfaEnrollmentModal = useCallback(() => api.showEnrollment(), [api])
  const initEnrollment = useCallback(
    async (type: MfaType, options?: Record<string, unknown>) => {
      await api.requireFresh()
      return method(type).initEnrollment(options)
    },
    [api, method],
  )
  const submitEnrollment = useCallback(
    async (type: MfaType, options: Record<string, unknown>): Promise<User> =>
      api.enrolled(type, await (method(type).submitEnrollment as (o: Record<string, unknown>) => Promise<{ user: WireUser }>)(options)),
    [api, method],
  )
  const unenroll = useCallback((type: MfaType) => api.unenroll(type), [api])
  const list = useCallback(() => (kernel.session.user?.mfaMethods ?? []).slice(), [kernel])
  const available = useMemo(() => MFA_METHOD_TYPES.filter((t) => kernel.hasPlugin(methodPluginId(t))), [kernel])
  return useMemo(
    () => ({ showMfaEnrollmentModal, initEnrollment, submitEnrollment, unenroll, list, available, mfaMethods: user?.mfaMethods ?? [] }),
    [showMfaEnrollmentModal, initEnrollment, submitEnrollment, unenroll, list, available, user],
  )
}
