/**
 * The transfer call (part 1 section 7): move an identifier that belongs to another account
 * onto the logged-in user with the nonce of the `account_transfer_required` error; the server
 * deletes the other account. The call itself is the login method's (`transfer` of the
 * descriptor that answers `link_method`); a method that declares none is refused with the
 * neutral `method_not_supported` and this plugin's own text.
 */
import type { Api, MethodDescriptor, WireAccountTransferData, WireAuthResponse, WireUser } from 'portico'
import { transferRefused } from './errors'
import type { ACCOUNT_TEXTS } from './strings'

export function transferAccount(
  api: Api,
  methods: { forLinkMethod(linkMethod: string): MethodDescriptor | undefined },
  data: WireAccountTransferData,
  texts: Pick<typeof ACCOUNT_TEXTS, 'unsupported'>,
): Promise<WireAuthResponse | { user: WireUser }> {
  const method = methods.forLinkMethod(data.link_method)
  if (!method?.transfer) return Promise.reject(transferRefused(data.link_method, texts))
  return method.transfer(api, data)
}
