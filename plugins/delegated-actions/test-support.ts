/** Test helpers of this plugin's tests (not exported from the entry). */
import { definePlugin, type PorticoPlugin } from 'portico'

export * from './index'
export { delegable } from './flow'

/** A minimal plugin that only provides `api` under `id` (a stand-in for a neighbour plugin). */
export function definePluginForTest(id: string, api: unknown): PorticoPlugin {
  return definePlugin({ id, kind: 'feature', setup: (ctx) => ctx.provide(api) })
}
