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
export interface SiwsMessage {
  domain: string
  address: string
  statement?: string
  uri?: string
  version?: string
  chainId?: string
  nonce?: string
  issuedAt?: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
}

const KEYS: Record<string, keyof SiwsMessage> = {
  URI: 'uri',
  Version: 'version',
  'Chain ID': 'chainId',
  Nonce: 'nonce',
  'Issued At': 'issuedAt',
  'Expiration Time': 'expirationTime',
  'Not Before': 'notBefore',
  'Request ID': 'requestId',
}

export function parseSiwsMessage(text: string): SiwsMessage | null {
  const lines = text.split('\n')
  const head = /^(\S+) wants you to sign in with your Solana account:$/.exec(lines[0] ?? '')
  if (!head || !lines[1]) return null
  const msg: SiwsMessage = { domain: head[1], address: lines[1].trim() }
  const statement: string[] = []
  for (const line of lines.slice(2)) {
    const m = /^([A-Za-z ]+): (.*)$/.exec(line)
    if (m && KEYS[m[1]]) (msg as any)[KEYS[m[1]]] = m[2].trim()
    else if (line.trim() && !msg.uri) statement.push(line)
  }
  if (statement.length) msg.statement = statement.join('\n')
  return msg
}

export function createSiwsMessage(m: SiwsMessage): string {
  const out = [`${m.domain} wants you to sign in with your Solana account:`, m.address, '']
  if (m.statement) out.push(m.statement, '')
  const fields: [string, string | undefined][] = [
    ['URI', m.uri],
    ['Version', m.version ?? '1'],
    ['Chain ID', m.chainId],
    ['Nonce', m.nonce],
    ['Issued At', m.issuedAt ?? new Date().toISOString()],
    ['Expiration Time', m.expirationTime],
    ['Not Before', m.notBefore],
    ['Request ID', m.requestId],
  ]
  for (const [k, v] of fields) if (v) out.push(`${k}: ${v}`)
  return out.join('\n')
}
