import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url))

/** Minimal app (e-mail only): `portico`, `portico/ui` and `portico/plugins/*` resolve to the sources. */
export default defineConfig({
  root: r('.'),
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^portico$/, replacement: r('../../kernel/index.ts') },
      { find: /^portico\/ui\/styles\.css$/, replacement: r('../../ui/styles.css') },
      { find: /^portico\/ui$/, replacement: r('../../ui/index.ts') },
      { find: /^portico\/plugins\/(.*)$/, replacement: r('../../plugins/$1/index.ts') },
    ],
  },
  server: { host: '127.0.0.1', port: 5174, strictPort: true },
  preview: { host: '127.0.0.1', port: 4174 },
  build: { outDir: r("dist"), emptyOutDir: true },
})
