/**
 * The identity core every login feature builds on: users, accounts, sessions, tokens. Each
 * module is the service; repo.ts holds their queries.
 */
export { type AccountInput, insertAccount, linkAccount, loginWithAccount, requireAccountOfType, transferAccount, unlinkAccount, updateAccount } from './accounts'
export { acceptTerms, accountToWire, guestLogin, loadUser, loadUserOfApp } from './users'
export { createSession, isGuestSession, revokeByRefreshToken, revokeSession, rotateRefreshToken, sessionAlive, type Rotated } from './sessions'
export { authResponse, identityToken, userResponse, type Deps } from './tokens'
