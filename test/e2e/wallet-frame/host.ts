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
}
