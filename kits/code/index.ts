/**
 * portico/kits/code — the one code-entry flow (part 1 sections 4, 5 and 9) that the code
 * methods configure instead of re-implementing (e-mail and SMS login, the MFA methods). A kit,
 * not a plugin: no `setup`, no method name, no React. See ./README.md. Its screen body is
 * `CodeEntryScreen` of `portico/ui/screens`; the code rule's numbers are `portico/ui`'s.
 */
export { createCodeFlow, INITIAL_CODE_STATE, normaliseCode } from './flow'
export type { CodeFlow, CodeFlowOptions, CodeFlowState, CodeFlowStatus, CodeTexts, SendOptions, VerifyContext } from './flow'
/**
 * The code login that e-mail and SMS configure (`createCodeLogin`, `codeLoginApi`; ./login.ts),
 * loaded on use: a method's lazy flow awaits it, so it stays out of the entry that imports this.
 */
export const loadCodeLogin = () => import('./login')
export type { CodeLogin, CodeLoginApi, CodeLoginOptions, CodeLoginCompleter, CodeLoginResponse, CodeLoginSubmit } from './login'
