/**
 * The demo app as `npm start` serves it: a production build (vite build, React's production
 * runtime, hashed chunks) kept in .tmp/demo-app/<stamp>/ and rebuilt only when a source or a
 * build variable changed; then a small static server (hashed assets cached for good, every
 * other path answers index.html).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SOURCES = ['kernel', 'ui', 'kits', 'plugins', 'examples/app', 'examples/custom-plugin/src', 'source-aliases.ts', 'package.json']

/** A hash of the app's sources (name, size, mtime) and the build variables. */
export function sourceStamp(env) {
  const h = createHash('sha1')
  h.update(JSON.stringify(env))
  const walk = (p) => {
    if (!existsSync(p)) return
    const st = statSync(p)
    if (!st.isDirectory()) return void h.update(`${p}:${st.size}:${st.mtimeMs}`)
    for (const name of readdirSync(p).sort()) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
      if (/\.(test|spec)\.tsx?$/.test(name)) continue
      walk(join(p, name))
    }
  }
  for (const s of SOURCES) walk(join(ROOT, s))
  return h.digest('hex').slice(0, 16)
}

/**
 * Build examples/app for production with `env` (VITE_* variables) unless that build exists.
 * Returns the folder. `log` receives vite's output lines.
 */
export async function buildDemoApp(env, log = (line) => console.log(line)) {
  const base = join(ROOT, '.tmp', 'demo-app')
  const stamp = sourceStamp(env)
  const out = join(base, stamp)
  if (existsSync(join(out, '.done'))) return { dir: out, built: false }
  mkdirSync(base, { recursive: true })
  log('building the demo app for production (a first start, or a source changed): about a minute')
  const vite = fileURLToPath(new URL('../node_modules/.bin/vite', import.meta.url))
  await new Promise((resolve, reject) => {
    const child = spawn(vite, ['build', '--config', 'examples/app/vite.config.ts', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: ROOT,
      // Production, always: a NODE_ENV left at 'development' would bundle React's development runtime.
      env: { ...process.env, ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const pipe = (s) => s.on('data', (d) => String(d).split('\n').filter(Boolean).forEach((l) => log(l)))
    pipe(child.stdout)
    pipe(child.stderr)
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`))))
  })
  writeFileSync(join(out, '.done'), new Date().toISOString())
  // Older builds go (keep the newest few, another terminal may serve one).
  const old = readdirSync(base)
    .filter((n) => n !== stamp)
    .map((n) => ({ n, t: statSync(join(base, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t)
    .slice(3)
  for (const { n } of old) rmSync(join(base, n), { recursive: true, force: true })
  return { dir: out, built: true }
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
}

/**
 * Serve a built app. `canonical` (http://localhost:5173): a request that names another host
 * (http://127.0.0.1:5173) is redirected there, so the page is always on the demo's site.
 */
export function serveBuiltApp(dir, { port, host, canonical }) {
  const server = createServer((req, res) => {
    if (canonical && req.headers.host && req.headers.host !== new URL(canonical).host) {
      res.writeHead(307, { location: new URL(req.url ?? '/', canonical).href }).end()
      return
    }
    const url = new URL(req.url ?? '/', 'http://x')
    let file = normalize(join(dir, decodeURIComponent(url.pathname)))
    if (!file.startsWith(dir + sep) && file !== dir) return void res.writeHead(403).end()
    if (!existsSync(file) || statSync(file).isDirectory() || file.endsWith('.done')) file = join(dir, 'index.html')
    res.writeHead(200, {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      // Vite names assets by content hash: cache them for good; the page itself is revalidated.
      'cache-control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    })
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
  })
}
