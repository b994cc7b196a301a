/**
 * The operator's import tool for pre-generated wallets (issue 32; README 'Pre-generated
 * wallets'). Run it on the operator's machine, never on the server:
 *
 *   PORTICO_ADMIN_API_KEY=portico_admin_… npx tsx examples/server/scripts/pregen.ts \
 *     --app <appId> --in users.csv --out claims.csv [--api http://localhost:8787]
 *
 * `--in`: one e-mail per line (a header `email` is skipped), or JSON Lines `{"email": …}`.
 * For each user it makes a wallet (pregen-wallet.ts: the address, the auth share for the
 * server, the claim share sealed under a new claim code) and writes `--out` (CSV: email,
 * address, claim_code) for the operator to deliver each code to its user out of band. It then
 * sends one admin import (users:write key; idempotency key: the hash of what it sends) and
 * prints its progress. What it sends waits in `<out>.pending.json` (mode 0600) until the server
 * has it: a rerun after a failure sends the same import again (the same job, no second
 * wallet); the file is deleted once the import is done — with the claim codes beside it, it
 * would rebuild every key.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { pregenerateWallet } from './pregen-wallet'

export function readEmails(text: string): string[] {
  const out: string[] = []
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || /^email$/i.test(line)) continue
    const email = line.startsWith('{') ? String((JSON.parse(line) as { email?: unknown }).email ?? '') : line.split(',')[0].trim()
    if (!email.includes('@')) throw new Error(`Not an e-mail address: ${email || line}`)
    out.push(email)
  }
  return out
}

/** The import body and the claim file's rows for these e-mails (the wallets made here). */
export async function pregenerate(appId: string, emails: string[]) {
  const users: unknown[] = []
  const claims: string[] = ['email,address,claim_code']
  for (const email of emails) {
    const { wallet, address, claimCode } = await pregenerateWallet(appId)
    users.push({ linked_accounts: [{ type: 'email', address: email }], embedded_wallet: wallet })
    claims.push(`${email},${address},${claimCode}`)
  }
  const idempotency_key = `pregen-${createHash('sha256').update(JSON.stringify(users)).digest('hex').slice(0, 32)}`
  return { body: { idempotency_key, users }, claims: claims.join('\n') + '\n' }
}

/** Sends the import and waits for it; resolves with the finished job. */
export async function sendImport(api: string, key: string, appId: string, body: unknown, progress: (job: { processed: number; total: number }) => void = () => {}) {
  const call = async (path: string, init?: RequestInit) => {
    const r = await fetch(`${api}/admin/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } })
    const json = (await r.json()) as Record<string, unknown>
    if (r.status >= 400) throw new Error(`${r.status} ${String(json.error ?? JSON.stringify(json))}`)
    return json
  }
  let job = await call(`/apps/${appId}/users/import`, { method: 'POST', body: JSON.stringify(body) })
  while (job.status === 'running') {
    progress(job as { processed: number; total: number })
    await new Promise((r) => setTimeout(r, 500))
    job = await call(`/apps/${appId}/users/imports/${String(job.id)}`)
  }
  return job
}

async function main() {
  const { values } = parseArgs({ options: { app: { type: 'string' }, in: { type: 'string' }, out: { type: 'string' }, api: { type: 'string', default: 'http://localhost:8787' } } })
  const key = process.env.PORTICO_ADMIN_API_KEY
  if (!values.app || !values.in || !values.out || !key) {
    console.error('usage: PORTICO_ADMIN_API_KEY=… npx tsx examples/server/scripts/pregen.ts --app <appId> --in users.csv --out claims.csv [--api URL]')
    process.exit(64)
  }
  const pending = `${values.out}.pending.json`
  let body: unknown
  if (existsSync(pending)) {
    body = JSON.parse(readFileSync(pending, 'utf8'))
    console.log(`resending the import in ${pending} (the claim codes are in ${values.out})`)
  } else {
    const emails = readEmails(readFileSync(values.in, 'utf8'))
    const made = await pregenerate(values.app, emails)
    writeFileSync(values.out, made.claims, { mode: 0o600, flag: 'wx' })
    writeFileSync(pending, JSON.stringify(made.body), { mode: 0o600 })
    body = made.body
    console.log(`${emails.length} wallets made; claim codes in ${values.out} (deliver each to its user; never to the server)`)
  }
  const job = await sendImport(values.api!, key, values.app, body, (j) => console.log(`  ${j.processed} / ${j.total}`))
  console.log(`import ${String(job.status)}: created ${String(job.created)}, existing ${String(job.existing)}, failed ${String(job.failed)}`)
  if (job.status === 'done') rmSync(pending)
  if (Number(job.failed)) console.log(JSON.stringify(job.errors, null, 2))
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
