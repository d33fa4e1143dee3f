// The calendar tables' types: the CalDAV mirror, the site's own events, and replies with what they carry (composed into Database by db/database.ts).
import type { Generated } from 'kysely'

export interface CalendarUidTable {
  uid: string
  created_at: string
}

export interface CalendarObjectTable {
  uid: string
  url: string
  etag: string | null
  ics: string
  synced_at: string
}

/** An event the site keeps itself (no CalDAV collection configured): the resource a collection would hold. */
export interface CalendarSiteEventTable {
  uid: string
  ics: string
  etag: string
  changed_at: string
}

export const RSVP_ANSWERS = ['yes', 'maybe', 'no'] as const
export type RsvpAnswer = (typeof RSVP_ANSWERS)[number]

/** An event that asks for replies, as last seen in the store. */
export interface RsvpEventTable {
  uid: string
  title: string
  date: string
  time: string | null
  location: string | null
  /** Replies close at this instant (the event's start). */
  starts_at: string
  asking: number
  asked_by: string
  asked_at: string
  /** When the store stopped holding the event; its replies are dropped 30 days later. */
  gone_at: string | null
  /** The sign-up settings (JSON), null for plain replies. */
  signup: string | null
  /** Whom the event concerns: the households with a scout in this unit, or every household. */
  unit: Generated<'pack' | 'troop' | 'both'>
}

export const REMINDER_KINDS = ['before_start', 'before_close'] as const
export type ReminderKind = (typeof REMINDER_KINDS)[number]

/** A reminder queued: one per event, household and kind. */
export interface RsvpReminderTable {
  uid: string
  household_id: number
  kind: ReminderKind
  queued_at: string
}

export interface RsvpTable {
  uid: string
  household_id: number
  answer: RsvpAnswer
  adults: number
  scouts: number
  note: string | null
  answered_by: string
  answered_at: string
  status: Generated<RsvpStatus>
  /** When the household's yes joined the line for places: the waitlist's order. */
  queued_at: string | null
  /** The scouts coming (JSON array of ids), when the event asks per scout. */
  scout_ids: string | null
  /** A split yes (confirmed): how many of its scouts still wait for a place, the last ones of scout_ids; else 0. */
  waiting: Generated<number>
}

export const RSVP_STATUSES = ['confirmed', 'waitlisted'] as const
export type RsvpStatus = (typeof RSVP_STATUSES)[number]

/** A permission slip as signed: the text shown, the typed name, who, when and from where. */
export interface RsvpPermissionTable {
  uid: string
  household_id: number
  text: string
  signed_name: string
  signed_by: string
  signed_at: string
  address: string
}

export interface RsvpSlotTable {
  uid: string
  household_id: number
  name: string
  count: number
}

export const PAYMENT_METHODS = ['cash', 'check', 'online', 'other'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

export interface RsvpPaymentTable {
  uid: string
  household_id: number
  paid_cents: number
  method: PaymentMethod
  note: string | null
  recorded_by: string
  recorded_at: string
}

/** A household's private calendar feed: the SHA-256 of its token; a new one replaces the row (the old link stops). */
export interface HouseholdFeedTable {
  household_id: number
  token_hash: string
  created_at: string
  created_by: string
}
