// The roster tables' types: households, their people, scouts and their checks (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export const CHECK_ITEMS = ['dues', 'health_form'] as const
export type CheckItem = (typeof CHECK_ITEMS)[number]

export interface HouseholdTable {
  id: Generated<number>
  parent_name: string
  email: string | null
  phone: string | null
  second_parent: string | null
  /** The second parent's email: mailed like email (sign-in links, welcome, messages). */
  second_email: string | null
  /** Whom to call when the parents cannot be reached (on a trip). */
  emergency_name: string | null
  emergency_phone: string | null
  notes: string | null
  active: number
  lead_id: number | null
  created_at: string
  updated_at: string
  /** Who added it: until it has a scout, only they (and admins) may change it. Null for households from before. */
  created_by_person_id: number | null
  /** What the roster sorts by; null sorts by the parent's last name. */
  sort_name: string | null
  /** A short random code online payments carry back (Stripe's client_reference_id); set by the database on insert. */
  payment_reference: Generated<string>
}
export type Household = Selectable<HouseholdTable>

export interface HouseholdPersonTable {
  household_id: number
  person_id: number
}

export interface ScoutTable {
  id: Generated<number>
  household_id: number
  first_name: string
  last_name: string | null
  unit_id: number
  den: string | null
  org_member_id: string | null
  /** The name the scout goes by, set by the family (shown in place of the first name). */
  preferred_name: string | null
  /** 1 when the family agrees to the scout appearing in photos. */
  photo_consent: Generated<number>
  created_at: string
  updated_at: string
}
export type Scout = Selectable<ScoutTable>

export interface CheckTable {
  scout_id: number
  /** The program year, by the calendar year it starts in. */
  year: number
  item: CheckItem
  done: number
  note: string | null
  /** health_form: the date written on the form (YYYY-MM-DD); it counts for 12 months from it. */
  form_date: string | null
  recorded_by: string
  recorded_at: string
}

/** A roster import's preview: the rows read from its file (JSON), until applied or an hour has passed. */
export interface RosterImportTable {
  id: string
  /** Who previewed it: only they may apply it (null from the command line). */
  person_id: number | null
  actor: string
  /** The unit rows that name none go to (the `unit` given, or the one the file's title names). */
  unit_id: number | null
  rows: string
  warnings: string
  created_at: string
  expires_at: string
  applied_at: string | null
}
