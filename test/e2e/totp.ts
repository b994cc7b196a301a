/** TOTP codes typed in e2e tests, against the server's window of one 30 s step either side. */

/**
 * Resolves once at least `marginMs` remain in the current 30 s step. A code generated right
 * after for this step or the one before is then still inside the server's window when it is
 * checked; generated near a step's end, a step boundary on the way makes the code from the step
 * before two steps old, and the server refuses it.
 */
export async function totpStepWithMargin(marginMs = 10_000): Promise<void> {
  const left = () => 30_000 - (Date.now() % 30_000)
  while (left() < marginMs) await new Promise((r) => setTimeout(r, 200))
}
