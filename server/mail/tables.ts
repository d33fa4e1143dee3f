// The mail tables' types (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export const MAIL_KINDS = [
  'invite',
  'reset',
  'forgot',
  'lead_alert',
  'message',
  'digest',
  'signup',
  'security',
  'alert',
  'login_link',
  'welcome',
  'statement',
  'photo_takedown',
] as const
export type MailKind = (typeof MAIL_KINDS)[number]
export const MAIL_STATES = ['queued', 'sending', 'sent', 'failed'] as const
export type MailState = (typeof MAIL_STATES)[number]

export interface MailOutboxTable {
  id: Generated<number>
  created_at: string
  kind: MailKind
  to_address: string
  subject: string
  text_body: string
  html_body: string
  /** JSON object of extra headers (Reply-To, List-Unsubscribe…). */
  headers: Generated<string>
  /** 1 when the body holds a one-time link: it is emptied once the mail is sent or has failed. */
  sensitive: Generated<number>
  /** 0 for mail someone is waiting for (a link they asked for), sent before the rest (1). */
  priority: Generated<number>
  /** After this a mail that could not go is marked failed (its link would be dead, or a day has passed). */
  give_up_at: string
  state: Generated<MailState>
  attempts: Generated<number>
  next_attempt_at: string
  last_attempt_at: string | null
  sent_at: string | null
  /** The relay's answer or the connection problem of the last failed attempt. */
  error: string | null
  /** The leader's message this mail delivers (null for mail the service writes itself). */
  message_id: number | null
  /**
   * When an attempt sent all of the message but the final dot of DATA, while no answer of the relay is recorded: from
   * that dot on the relay may have the mail whatever happens next. Cleared when the next attempt starts.
   */
  handed_at: string | null
  /** Earlier attempts of this mail that were handed over and never answered: copies the family may have besides this one. */
  maybe_sent: Generated<number>
}
export type OutboxMail = Selectable<MailOutboxTable>
