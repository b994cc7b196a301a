/**
 * The host page of the frame-level browser test: the plugin's real FrameClient, exposed on
 * `window.portico` so the test drives the frame protocol directly (no React, no kernel).
 */
import { FrameClient } from '../../../plugins/embedded-wallet/frame-client'

declare global {
  interface Window {
    portico: {
      connect(frameUrl: string, appId: string): Promise<void>
      request(type: string, payload: unknown, timeoutMs?: number): Promise<{ data?: unknown; error?: { code: string; message: string; type?: string } }>
      frame(): FrameClient
      /** Bench: ms from creating the frame client (the iframe) to its `ready` reply. */
      coldReady(frameUrl: string, appId: string): Promise<number>
      /** Bench: ms of `runs` sequential requests. */
      time(type: string, payload: unknown, runs: number): Promise<number[]>
    }
  }
}

let client: FrameClient | null = null
window.portico = {
  async connect(frameUrl, appId) {
    client = new FrameClient({ frameUrl, appId })
    await client.ready(30_000)
  },
  async request(type, payload, timeoutMs) {
    try {
      return { data: await client!.request(type as never, payload as never, { timeoutMs }) }
    } catch (e) {
      const err = e as { code: string; message: string; data?: { frameErrorType?: string } }
      return { error: { code: err.code, message: err.message, type: err.data?.frameErrorType } }
    }
  },
  frame: () => client!,
  async coldReady(frameUrl, appId) {
    const t = performance.now()
    client = new FrameClient({ frameUrl, appId })
    await client.ready(30_000)
    return performance.now() - t
  },
  async time(type, payload, runs) {
    const out: number[] = []
    for (let i = 0; i < runs; i++) {
      const t = performance.now()
      await client!.request(type as never, payload as never)
      out.push(performance.now() - t)
    }
    return out
  },
}
