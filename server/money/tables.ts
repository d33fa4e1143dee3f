// The money tables' types: the ledger's entries and the enumerations its columns hold (composed by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export const ENTRY_KINDS = ['charge', 'payment', 'credit', 'refund'] as const
export type EntryKind = (typeof ENTRY_KINDS)[number]
export const PAY_METHODS = ['cash', 'check', 'online', 'other'] as const
export type PayMethod = (typeof PAY_METHODS)[number]

export type EntryOrigin = 'trip_fee' | 'event_payment'

/** What an entry of each kind does to a balance, where a positive balance is owed to the unit. */
export const KIND_SIGN: Record<EntryKind, 1 | -1> = { charge: 1, refund: 1, payment: -1, credit: -1 }

export interface MoneyEntryTable {
  id: Generated<number>
  /** Every entry belongs to a household; a scout's entry names the scout too. */
  household_id: number
  scout_id: number | null
  kind: EntryKind
  /** Always above zero: the kind (and reverses_id) give the sign. */
  amount_cents: number
  /** The day it happened (YYYY-MM-DD), as the treasurer writes it. */
  date: string
  memo: string
  event_uid: string | null
  method: PayMethod | null
  reference: string | null
  /** The entry this one undoes; its effect on the balance is the other way. */
  reverses_id: number | null
  /** The program year of a dues charge. */
  dues_year: number | null
  /** The rule that wrote it, when no person entered it: a trip fee, or an event's payment route (trip-fees.ts). */
  origin: EntryOrigin | null
  created_by: string
  created_at: string
}
export type MoneyEntry = Selectable<MoneyEntryTable>

/** An online payment as its provider reported it; `entry_id` is null while it names no household (unmatched). */
export interface OnlinePaymentTable {
  id: Generated<number>
  provider: 'stripe'
  /** The provider's event id: a retried event finds its row and changes nothing. */
  event_id: string
  session_id: string
  /** The payment reference it carried (Stripe's client_reference_id), as sent. */
  reference: string | null
  amount_cents: number
  currency: string
  payer_email: string | null
  received_at: string
  entry_id: number | null
  assigned_by: string | null
  assigned_at: string | null
}

/** A fundraiser-credits import's preview: the lines read from its file, until applied or an hour has passed. */
export interface MoneyImportTable {
  id: string
  /** Who previewed it: only they may apply it. */
  person_id: number | null
  actor: string
  /** The unit whose scouts the lines name (null: every unit the importer leads). */
  unit_id: number | null
  lines: string
  created_at: string
  expires_at: string
  applied_at: string | null
}
