/** Vite's build-time variables the demo reads (`npm start` sets them). */
interface ImportMetaEnv {
  readonly VITE_PORTICO_CREATE_ON_LOGIN?: string
  readonly VITE_PORTICO_API_URL?: string
  readonly VITE_PORTICO_FRAME_URL?: string
  /** `npm start`: the local stack's Safe contracts (JSON), for `?sw=1`. */
  readonly VITE_PORTICO_SAFE_CONTRACTS?: string
}
interface ImportMeta {
  readonly env: ImportMetaEnv
}
