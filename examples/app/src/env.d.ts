/** Vite's build-time variables the demo reads (`npm start` sets them). */
interface ImportMetaEnv {
  readonly VITE_PORTICO_CREATE_ON_LOGIN?: string
}
interface ImportMeta {
  readonly env: ImportMetaEnv
}
