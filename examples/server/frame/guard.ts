/**
 * The frame's one rule for incoming messages: only from the embedding page (its parent
 * window, never another window, frame or the frame itself) and only from one of the app's
 * allowed origins. Anything else is dropped without a reply.
 */
export function accepts(
  event: { origin: string; source: unknown },
  parent: unknown,
  self: unknown,
  allowedOrigins: readonly string[],
): boolean {
  if (!parent || parent === self || event.source !== parent) return false
  return allowedOrigins.includes(event.origin)
}
