/** Vite's build-time variables the demo reads (`npm start` sets them). */
interface ImportMetaEnv {
  readonly VITE_PORTICO_CREATE_ON_LOGIN?: string
  readonly VITE_PORTICO_API_URL?: string
  readonly VITE_PORTICO_FRAME_URL?: string
}
interface ImportMeta {
  readonly env: ImportMetaEnv
}
