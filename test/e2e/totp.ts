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

/** The 30 s step `ms` falls in. */
export const totpStepOf = (ms: number): number => Math.floor(ms / 30_000)

/**
 * The step of the next code to type when `lastStep` was used already (the server refuses a step
 * at or before the last one used): `lastStep + 1`, but never a step gone by. A code of the current
 * step stays inside the server's window for at least the next 30 s, one of the next step for at
 * least 60 s, so nothing waits for the clock; only a step two ahead (two codes used within one
 * step) waits until it is the next one.
 */
export async function nextTotpStep(lastStep: number): Promise<number> {
  while (lastStep + 1 > totpStepOf(Date.now()) + 1) await new Promise((r) => setTimeout(r, 200))
  return Math.max(lastStep + 1, totpStepOf(Date.now()))
}
