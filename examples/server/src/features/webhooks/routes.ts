/**
 * Webhooks (issue 32) have no public route: endpoints come from apps.json (seeded at start-up)
 * and from the service (`service.ts`: create, list, disable, deliveries, replay), which the
 * admin API (`/admin/v1`, another change) exposes to operators. The worker (`worker.ts`) runs in
 * the server process (main.ts). This sub-app stays empty so that the feature is mounted like
 * every other one.
 */
import type { ServerCtx } from '../../core/context'
import { router } from '../../core/router'

export function webhooksRoutes(ctx: ServerCtx) {
  return router(ctx).app
}
