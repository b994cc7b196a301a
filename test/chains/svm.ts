/**
 * A local Solana cluster for tests: the SVM JSON-RPC stand-in (examples/stand-ins/svm, a real
 * SVM through litesvm) in its own process on a free port. litesvm's native module may abort
 * while the process exits, so it never runs inside a test worker.
 *
 * ```ts
 * const svm = await startSvm()
 * await svm.airdrop(address, 2_000_000_000n)
 * const mint = await svm.createMint(6, 'usdc')     // a real SPL mint (deterministic per seed)
 * await svm.mintTo(mint, owner, 5_000_000n)        // creates owner's associated token account
 * svm.stop()
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'


export interface Svm {
  rpc: string
  /** The demo SPL token main.ts creates at start (6 decimals). */
  demoMint: string
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>
  airdrop(address: string, lamports: bigint | number): Promise<void>
  createMint(decimals: number, seed?: string): Promise<string>
  mintTo(mint: string, owner: string, amount: bigint | number): Promise<string>
  balance(address: string): Promise<number>
  stop(): void
}

export async function startSvm(options: { port?: number; fund?: string[] } = {}): Promise<Svm> {
  const node: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'stand-ins', 'svm', 'main.ts')],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORTICO_SVM_PORT: String(options.port ?? 0), PORTICO_SVM_FUND: (options.fund ?? []).join(',') },
    },
  )
  let log = ''
  const { rpc, demoMint } = await new Promise<{ rpc: string; demoMint: string }>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += d
      const m = /on (http:\/\/[\d.]+:\d+); demo SPL token \(6 decimals\) (\w+)/.exec(log)
      if (m) resolve({ rpc: m[1], demoMint: m[2] })
    }
    node.stdout!.on('data', onData)
    node.stderr!.on('data', onData)
    node.once('exit', () => reject(new Error(`SVM stand-in exited: ${log}`)))
  })
  node.stdout!.resume()
  node.stderr!.resume()
  // A stand-in that dies under a test shows up as ECONNRESET / ECONNREFUSED in some later
  // request: say when and how it died (litesvm's native module can abort the process).
  let stopped = false
  let died: string | null = null
  node.once('exit', (code, signal) => {
    if (stopped) return
    died = `SVM stand-in (${rpc}) exited unexpectedly: code ${code}, signal ${signal}\n${log.slice(-4000)}`
    console.error(died)
  })
  let id = 0
  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    if (died) throw new Error(died)
    const r = await fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await r.json()) as { result?: T; error?: { message: string } }
    if (body.error) throw new Error(`${method}: ${body.error.message}`)
    return body.result as T
  }
  return {
    rpc,
    demoMint,
    call,
    airdrop: async (address, lamports) => void (await call('standIn_airdrop', [address, String(lamports)])),
    createMint: (decimals, seed) => call<string>('standIn_createMint', [decimals, seed]),
    mintTo: (mint, owner, amount) => call<string>('standIn_mintTo', [mint, owner, String(amount)]),
    balance: async (address) => (await call<{ value: number }>('getBalance', [address])).value,
    stop: () => {
      stopped = true
      node.kill('SIGKILL')
    },
  }
}
