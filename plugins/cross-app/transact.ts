/**
 * Opening the provider's transact popup for a connection (loaded with the landing's
 * connections, or on first use): the read-only and no-page refusals, then `openTransact`.
 */
import type { PluginContext } from 'portico'
import type { CrossAppConnection } from './calls'
import { crossAppError } from './errors'
import { openTransact, type PopupWindow, type Transaction } from './popup'
import { CROSS_APP_TEXTS } from './strings'

export function transact(
  ctx: Pick<PluginContext, 'texts' | 'config'>,
  connection: CrossAppConnection,
  action: 'login' | 'link' | 'transact',
  popup?: PopupWindow | null,
): Transaction {
  const texts = ctx.texts(CROSS_APP_TEXTS)
  try {
    if (!connection.transact_url) throw crossAppError('method_not_supported', texts.issue.replace('{app}', connection.provider_app_name))
    if (action === 'transact' && connection.read_only) throw crossAppError('method_not_supported', texts.readOnly)
  } catch (e) {
    popup?.close()
    throw e
  }
  return openTransact({
    transactUrl: connection.transact_url,
    providerAppId: connection.provider_app_id,
    request: { appId: ctx.config.appId, name: ctx.config.name, logoUrl: typeof ctx.config.appearance?.logo === 'string' ? ctx.config.appearance.logo : null, action },
    texts,
    popup,
  })
}
