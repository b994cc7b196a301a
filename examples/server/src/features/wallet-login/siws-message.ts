/**
 * Sign-In With Solana text messages (the EIP-4361 layout with "Solana account"):
 *
 *   {domain} wants you to sign in with your Solana account:
 *   {address}
 *
 *   {statement}            (optional, followed by an empty line)
 *
 *   URI: {uri}
 *   Version: 1
 *   Chain ID: {chainId}    (optional, e.g. mainnet)
 *   Nonce: {nonce}
 *   Issued At: {ISO 8601}
 *   Expiration Time: {ISO 8601}   (optional)
 *   Not Before: {ISO 8601}        (optional)
 *   Request ID: {id}              (optional)
 */

/** The fields after the statement, by their label in the text (in this order): the one list for parsing, building and the type. */
const FIELDS = {
  URI: 'uri',
  Version: 'version',
  'Chain ID': 'chainId',
  Nonce: 'nonce',
  'Issued At': 'issuedAt',
  'Expiration Time': 'expirationTime',
  'Not Before': 'notBefore',
  'Request ID': 'requestId',
} as const

type Field = (typeof FIELDS)[keyof typeof FIELDS]

export type SiwsMessage = { domain: string; address: string; statement?: string } & { [K in Field]?: string }

export function parseSiwsMessage(text: string): SiwsMessage | null {
  const lines = text.split('\n')
  const head = /^(\S+) wants you to sign in with your Solana account:$/.exec(lines[0] ?? '')
  if (!head || !lines[1]) return null
  const msg: SiwsMessage = { domain: head[1], address: lines[1].trim() }
  const statement: string[] = []
  for (const line of lines.slice(2)) {
    const m = /^([A-Za-z ]+): (.*)$/.exec(line)
    // Own labels only: a line such as 'constructor: x' is statement text, not a field.
    const field = m && Object.hasOwn(FIELDS, m[1]) ? (FIELDS as Record<string, Field>)[m[1]] : undefined
    if (m && field) msg[field] = m[2].trim()
    else if (line.trim() && !msg.uri) statement.push(line)
  }
  if (statement.length) msg.statement = statement.join('\n')
  return msg
}

export function createSiwsMessage(m: SiwsMessage): string {
  const out = [`${m.domain} wants you to sign in with your Solana account:`, m.address, '']
  if (m.statement) out.push(m.statement, '')
  const values: SiwsMessage = { ...m, version: m.version ?? '1', issuedAt: m.issuedAt ?? new Date().toISOString() }
  for (const [label, field] of Object.entries(FIELDS)) if (values[field]) out.push(`${label}: ${values[field]}`)
  return out.join('\n')
}
