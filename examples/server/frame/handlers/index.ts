/**
 * Every handler family of the frame, imported once. Add one line per family module:
 * `import './recovery-passcode'`, `import './recovery-cloud'`, `import './export'`,
 * `import './delegation'`.
 */
import './wallets'
import './rpc'
import './recovery-passcode'
import './recovery-cloud'
import './delegation'
import './authorize'
import './step-up'
import './mfa'
import './farcaster'

export { handlerFor, register, registerRecoveryMethod, recoveryMethod } from './registry'
