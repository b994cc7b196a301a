/**
 * Login-method descriptors. Each login plugin declares its method once (`ctx.methods.declare`)
 * — account types and how to normalise them, display name, transfer label and call, unlink,
 * whether it is remembered as the recent method — as an Auth.js provider declares its profile
 * mapping. The kernel, `ui` and the account plugin read descriptors; none of them lists
 * method names.
 */
import { PorticoError } from './errors'
import type { Api } from './transport'
import type { LinkedAccount, User } from './user'
import type { WireAccountTransferData, WireAuthResponse, WireLinkedAccountBase, WireUser } from './wire'

export interface MethodDescriptor {
  /** The login-method id as config lists it and as it is remembered: 'email', 'sms', 'siwe'. */
  id: string
  /** Display name (part 1 section 2, 'Login method display names'): 'e-mail', 'SMS', 'Google'. */
  displayName: string
  /** Wire account types this method links: ['email'], ['google_oauth']. */
  accountTypes?: readonly string[]
  /** The user-record field the first account of those types fills: 'email', 'google'. */
  userField?: string
  /** Normalise one raw linked account of `accountTypes` (default: camelCase keys, seconds to dates). */
  normalise?(raw: WireLinkedAccountBase): LinkedAccount
  /** Add derived fields to the user record (e.g. the wallet base: `wallet`, `delegatedWallets`). */
  derive?(user: User): void
  /** The transfer prompt's label (part 1 section 2, 'Method labels'): 'Email address', 'Google profile'. */
  transferLabel?: string
  /** `link_method` values of `account_transfer_required` this method answers (default: its id). */
  linkMethods?: readonly string[]
  /** Move the identifier from another user onto the logged-in one. Absent: not transferable. */
  transfer?(api: Api, data: WireAccountTransferData): Promise<WireAuthResponse | { user: WireUser }>
  /** Unlink one of its accounts. Absent: not unlinkable from generic UI. */
  unlink?(api: Api, account: LinkedAccount): Promise<{ user: WireUser }>
  /** Remembered as the recent login method (default true; passkeys and cross-app are not). */
  remembered?: boolean
}

export interface MethodRegistry {
  /** Declare a method; returns the undo (plugins return it from their teardown). */
  declare(descriptor: MethodDescriptor): () => void
  get(id: string): MethodDescriptor | undefined
  /** The method that declared this wire account type. */
  forAccountType(type: string): MethodDescriptor | undefined
  /** The method that answers this `link_method` of an account transfer. */
  forLinkMethod(linkMethod: string): MethodDescriptor | undefined
  list(): MethodDescriptor[]
  /** A user has an account of a type no method declared: warned once per type, in development. */
  undeclared(type: string): void
}

/**
 * `warn` hears of a wire account type declared by two methods (the first one normalises it and
 * fills its user field; the second is ignored for that type).
 */
export function createMethodRegistry(onChange: () => void = () => {}, warn: (message: string) => void = () => {}): MethodRegistry {
  const byId = new Map<string, MethodDescriptor>()
  const find = (pred: (d: MethodDescriptor) => boolean) => [...byId.values()].find(pred)
  const warnedTypes = new Set<string>()
  return {
    declare(d) {
      const invalid = !d || typeof d.id !== 'string' || !d.id || typeof d.displayName !== 'string'
      if (invalid || byId.has(d.id)) {
        let message = `Login method '${d?.id}': ${invalid ? 'invalid' : 'duplicate'}`
        // Development builds say what to fix; a bundler defining process.env.NODE_ENV as 'production' drops the text.
        try {
          if (process.env.NODE_ENV !== 'production') {
            message = invalid
              ? 'A login method needs a string id and a displayName.'
              : `Login method '${d.id}' is declared twice; each method is declared by one plugin.`
          }
        } catch {
          /* no `process` */
        }
        throw new PorticoError('invalid_plugin', message)
      }
      // Development only: a bundler that defines process.env.NODE_ENV as 'production' drops
      // this block; without `process` (no bundler) it is skipped.
      try {
        if (process.env.NODE_ENV !== 'production') {
          for (const type of d.accountTypes ?? []) {
            const owner = find((o) => (o.accountTypes ?? []).includes(type))
            if (owner) warn(`Account type '${type}' is declared by '${owner.id}' and '${d.id}'; '${owner.id}' wins.`)
          }
        }
      } catch {}
      // Copied with its getters (a manifest's display name reads the texts when asked).
      const frozen = Object.freeze(Object.defineProperties({}, Object.getOwnPropertyDescriptors(d)) as MethodDescriptor)
      byId.set(d.id, frozen)
      onChange()
      return () => {
        if (byId.get(d.id) === frozen) {
          byId.delete(d.id)
          onChange()
        }
      }
    },
    get: (id) => byId.get(id),
    forAccountType: (type) => find((d) => (d.accountTypes ?? []).includes(type)),
    forLinkMethod: (m) => find((d) => (d.linkMethods ?? [d.id]).includes(m)),
    list: () => [...byId.values()],
    undeclared(type) {
      // Development only, as above.
      try {
        if (process.env.NODE_ENV !== 'production' && !warnedTypes.has(type)) {
          warnedTypes.add(type)
          warn(`No method declares account type '${type}': it fills no user field (declare its accountTypes and userField).`)
        }
      } catch {}
    },
  }
}
