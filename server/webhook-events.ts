/**
 * The webhook events' names and payload types, written once: `portico/server` exports them to
 * hosts, and the reference server (examples/server/src/core/events.ts) writes its outbox rows
 * with them. Types and one constant only, so either side may import it.
 */
/** The events a Portico server sends to your webhook endpoints. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.authenticated',
  'user.linked_account',
  'user.unlinked_account',
  'user.updated_account',
  'user.transferred_account',
  'user.deleted',
  'wallet.created',
  'wallet.recovered',
  'mfa.enabled',
  'mfa.disabled',
  'delegation.granted',
  'delegation.revoked',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** A linked account in an event: its type and wire fields (no verification times). */
export type WebhookAccount = { type: string } & Record<string, unknown>

/** Each event's `data`: the user and what changed. Never a token or a secret. */
export interface WebhookEventData {
  'user.created': { user_id: string; created_at: number; is_guest: boolean; linked_accounts: WebhookAccount[] }
  'user.authenticated': { user_id: string; is_new_user: boolean; account: WebhookAccount | null }
  'user.linked_account': { user_id: string; account: WebhookAccount }
  'user.unlinked_account': { user_id: string; account: WebhookAccount }
  'user.updated_account': { user_id: string; account: WebhookAccount; previous_account: WebhookAccount }
  'user.transferred_account': { user_id: string; from_user_id: string; account: WebhookAccount; deleted_user: boolean }
  'user.deleted': { user_id: string; reason: string }
  /** `pregenerated`: made by the operator's import tool (issue 32); sent at import, none again when the user claims it. */
  'wallet.created': { user_id: string; wallet: { address: string; chain_type: string; wallet_index: number; imported: boolean; recovery_method: string; pregenerated?: boolean } }
  'wallet.recovered': { user_id: string; entropy_id: string; recovery_method: string; device: 'step_up' | 'recovery' }
  'mfa.enabled': { user_id: string; method: string }
  'mfa.disabled': { user_id: string; method: string }
  'delegation.granted': { user_id: string; wallet: { address: string; chain_type: string }; expires_at: number | null }
  'delegation.revoked': { user_id: string; wallet: { address: string; chain_type: string }; reason: 'user' | 'app' | 'expired' }
}

/** A verified webhook event: narrow on `type` to get its `data`. `timestamp` in seconds. */
export type WebhookEvent = { [T in WebhookEventType]: { type: T; timestamp: number; data: WebhookEventData[T] } }[WebhookEventType]
