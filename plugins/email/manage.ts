/** Update and unlink the user's e-mail (part 1 sections 2 and 5). */
import { useCallback, useRef } from 'react'
import { PorticoError, toPorticoError, type FlowResult } from 'portico'
import { useKernel, type FlowCallbacks } from 'portico/ui'
import { unlinkEmail } from './calls'
import { EMAIL_TEXTS } from './strings'

/** `updateEmail()` opens the e-mail form with intent 'update'; needs a linked e-mail. */
export function useUpdateEmail(callbacks: FlowCallbacks = {}) {
  const kernel = useKernel()
  const cb = useRef(callbacks)
  cb.current = callbacks
  const updateEmail = useCallback(async (): Promise<FlowResult> => {
    let result: FlowResult
    if (!kernel.session.authenticated) {
      result = { ok: false, error: new PorticoError('must_be_authenticated', 'User must be authenticated to update an email address.') }
    } else if (!kernel.session.user?.email) {
      result = { ok: false, error: new PorticoError('failed_to_update_account', EMAIL_TEXTS.updateRequiresEmail) }
    } else {
      result = await kernel.screens.open('email-form', {}, { intent: 'update' })
    }
    if (result.ok) cb.current.onComplete?.(result.value as never)
    else cb.current.onError?.(result.error)
    return result
  }, [kernel])
  return { updateEmail }
}

/** `unlinkEmail(address?)`: POST /passwordless/unlink; updates the user record. */
export function useUnlinkEmail() {
  const kernel = useKernel()
  const unlink = useCallback(
    async (address?: string) => {
      const target = address ?? kernel.session.user?.email?.address
      if (!target) throw new PorticoError('invalid_data', 'The user has no email address to unlink.')
      try {
        const res = await unlinkEmail(kernel.api, target)
        return kernel.session.setUser(res.user)
      } catch (e) {
        throw toPorticoError(e)
      }
    },
    [kernel],
  )
  return { unlinkEmail: unlink }
}
