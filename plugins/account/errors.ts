/**
 * The account plugin's errors, in one place:
 * - `account_transfer_required` (the kernel no longer maps it) → the link-conflict screen;
 * - `method_not_supported` it raises itself (no enabled method can transfer this kind of
 *   account) → the generic error screen with its own text, whatever another plugin declares
 *   for `not_supported` (SMS's region refusal).
 */
import { ERROR_SCREEN, PorticoError, defineErrors, formatText, type MethodDescriptor } from 'portico'
import { ACCOUNT_TEXTS } from './strings'
import { ACCOUNT_SCREENS, transferData, transferLabel } from './transfer'

/** Marks the errors this plugin raises (`error.data.plugin`). */
const SOURCE = 'account'

/** `method_not_supported`: no declared method transfers this `link_method`. */
export function transferRefused(linkMethod: string, texts: Pick<typeof ACCOUNT_TEXTS, 'unsupported'> = ACCOUNT_TEXTS): PorticoError {
  return new PorticoError('method_not_supported', formatText(texts.unsupported, { method: linkMethod }), {
    data: { plugin: SOURCE, link_method: linkMethod },
  })
}

export function accountErrors(deps: {
  methods: { forLinkMethod(linkMethod: string): MethodDescriptor | undefined }
  texts: () => typeof ACCOUNT_TEXTS
}) {
  return defineErrors({
    account_transfer_required: (error) => {
      const t = deps.texts()
      const data = transferData(error.data)
      const method = data ? transferLabel(deps.methods.forLinkMethod(data.link_method), t.fallbackLabel) : t.fallbackLabel
      return { title: formatText(t.conflictTitle, { method }), screen: ACCOUNT_SCREENS.linkConflict }
    },
    method_not_supported: (error) => {
      if (error.data?.plugin !== SOURCE) return undefined
      const t = deps.texts()
      return { title: t.unsupportedTitle, detail: error.message, cta: t.back, action: 'back', screen: ERROR_SCREEN }
    },
  })
}
