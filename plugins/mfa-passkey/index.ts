/**
 * portico/plugins/mfa-passkey — passkeys as an MFA method (spec part 2 sections 2, 4, 5, 9):
 * 'mfa-passkey' shows the intro when the user has no passkey, else the list (3 passkeys, or 2
 * when there are more than 3) with 'Enable passkeys' and 'Add new passkey' (hidden at 5);
 * adding links a passkey (WebAuthn, @simplewebauthn/browser loaded lazily), then enrols all
 * the user's passkey credential ids; then 'Passkey verification added'. Verification with a
 * passkey runs by itself on the base's 'Verify your identity' screen. Needs the base:
 * `plugins: [mfa(), mfaPasskey()]`; the app must allow passkeys (linking).
 */
import { definePlugin, type PasskeyAccount, type PorticoPlugin, type User, type WireUser } from 'portico'
import type { MfaMethodPluginApi } from 'portico/kits/mfa'
import { initLinkPasskey, linkPasskey, submitPasskeyEnrollment } from './calls'

/** This method's texts (./strings.ts, `MFA_PASSKEY_TEXTS`): its screens load them; apps override them under `texts: { 'mfa-passkey': {...} }`. */
export type MfaPasskeyTexts = typeof import('./strings').MFA_PASSKEY_TEXTS
export { initLinkPasskey, linkPasskey, submitPasskeyEnrollment } from './calls'

export { MAX_MFA_PASSKEYS, passkeysShown } from './limits'

export const MFA_PASSKEY_SCREENS = { enrol: 'mfa-passkey' } as const

export interface MfaPasskeySettings {
  /** The relying party id (default: this page's host name). */
  relyingParty?: string
  /** Load @simplewebauthn/browser (tests hand in their own). */
  loadWebAuthn?: () => Promise<{ startRegistration(o: { optionsJSON: never }): Promise<unknown> }>
}

export interface MfaPasskeyApi extends MfaMethodPluginApi {
  type: 'passkey'
  /** The user's passkeys. */
  passkeys(): PasskeyAccount[]
  /** Link a new passkey (WebAuthn registration); resolves with the updated user. */
  initEnrollment(): Promise<User>
  /** Enrol these credentials (default: all the user's passkeys). */
  submitEnrollment(options?: { credentialIds?: string[] }): Promise<{ user: WireUser }>
}

declare module 'portico' {
  interface PluginApis {
    'mfa-passkey': MfaPasskeyApi
  }
}

const passkeysOf = (user: User | null | undefined): PasskeyAccount[] =>
  (user?.linkedAccounts ?? []).filter((a): a is PasskeyAccount => a.type === 'passkey')

export function mfaPasskey(settings: MfaPasskeySettings = {}): PorticoPlugin<'mfa-passkey'> {
  return definePlugin({
    id: 'mfa-passkey',
    kind: 'mfa',
    setup(ctx) {
      const load = settings.loadWebAuthn ?? (() => import('@simplewebauthn/browser') as never)
      const rp = () => settings.relyingParty ?? globalThis.location?.hostname ?? 'localhost'
      const api: MfaPasskeyApi = {
        type: 'passkey',
        passkeys: () => passkeysOf(ctx.session.user),
        async initEnrollment() {
          const [lib, init] = await Promise.all([load(), initLinkPasskey(ctx.api, rp())])
          const response = await lib.startRegistration({ optionsJSON: init.options as never })
          const res = await linkPasskey(ctx.api, { relying_party: init.relying_party, challenge: init.options.challenge, authenticator_response: response })
          return ctx.session.setUser(res.user)
        },
        submitEnrollment: (options = {}) =>
          submitPasskeyEnrollment(ctx.api, options.credentialIds ?? passkeysOf(ctx.session.user).map((p) => p.credentialId)),
      }
      ctx.provide(api)
      ctx.screens.register({ id: MFA_PASSKEY_SCREENS.enrol, load: () => import('./screens/enrol') })
    },
  })
}
