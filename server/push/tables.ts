// The push tables' types (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

/** What may buzz a phone, each a person's choice of mail, push or both. */
export const PUSH_KINDS = ['urgent', 'reminder', 'signup', 'lead_alert'] as const
export type PushKind = (typeof PUSH_KINDS)[number]
export const CHANNELS = ['mail', 'push', 'both'] as const
export type Channel = (typeof CHANNELS)[number]
export const PUSH_STATES = ['queued', 'sending', 'sent', 'failed'] as const
export type PushState = (typeof PUSH_STATES)[number]

export interface PushSubscriptionTable {
  id: Generated<number>
  person_id: number
  /** The push service's address for this browser: an outside address, called only through the outbound guard. */
  endpoint: string
  /** The browser's P-256 public key and auth secret (base64url), which the payload is encrypted to (RFC 8291). */
  p256dh: string
  auth: string
  user_agent: string | null
  created_at: string
  /** The session that subscribed it: signing that session out ends it (null when a key did). */
  session_id: number | null
}

export interface PushPreferenceTable {
  person_id: number
  kind: PushKind
  channel: Channel
}

export interface PushOutboxTable {
  id: Generated<number>
  created_at: string
  kind: PushKind
  person_id: number
  /** Null once the device unsubscribed or its push service said it is gone. */
  subscription_id: number | null
  endpoint: string
  title: string
  body: string
  url: string
  state: Generated<PushState>
  attempts: Generated<number>
  next_attempt_at: string
  last_attempt_at: string | null
  sent_at: string | null
  give_up_at: string
  error: string | null
  /** The leader's message this push delivers. */
  message_id: number | null
}
export type OutboxPush = Selectable<PushOutboxTable>
