// The messages tables' types (composed into Database by db/database.ts).
import type { Generated } from 'kysely'

export const SKIP_REASONS = ['unsubscribed', 'no address'] as const
export type SkipReason = (typeof SKIP_REASONS)[number]

export interface MessageTable {
  id: Generated<number>
  created_at: string
  /** The leader who sent it (a key's owner when a script did): replies go to them. */
  sender_person_id: number
  /** How the action log names the sender. */
  sent_by: string
  subject: string
  /** Markdown, as written. */
  body: string
  /** JSON: the audience as asked. */
  audience: string
  /** JSON array of the units it went to: every leader of these sees it (two-deep leadership). */
  unit_ids: string
  urgent: Generated<number>
  recipients: number
}

/** A household or address the message did not go to, and why. */
export interface MessageSkipTable {
  message_id: number
  email: string | null
  /** The household (by its parent's name) or the address, as a leader recognises it. */
  who: string
  reason: SkipReason
}

/** One row per address that was ever mailed a message: its unsubscribe token, and whether it is unsubscribed. */
export interface MailSubscriptionTable {
  email: string
  token: string
  created_at: string
  unsubscribed_at: string | null
}

/** A weekly digest already queued, by the site-time-zone day it was for (so a restart never sends it twice). */
export interface DigestRunTable {
  day: string
  ran_at: string
  mails: number
}
