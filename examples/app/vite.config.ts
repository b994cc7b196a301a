import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { sourceAliases } from '../../source-aliases'

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url))

/** Demo app: `portico`, `portico/ui` and `portico/plugins/*` resolve to the sources. */
export default defineConfig({
  root: r('.'),
  plugins: [react()],
  resolve: { alias: sourceAliases },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { outDir: r('dist'), emptyOutDir: true, sourcemap: true },
})
