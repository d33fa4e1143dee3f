// The units table's types (composed into Database by db/database.ts), and the weekdays a meeting falls on.
import type { Generated, Selectable } from 'kysely'

export const UNIT_SLUGS = ['pack', 'troop'] as const
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export interface UnitTable {
  id: Generated<number>
  slug: (typeof UNIT_SLUGS)[number]
  name: string
  unit_type: (typeof UNIT_SLUGS)[number]
  number: string | null
  meeting_day: Weekday | null
  meeting_time: string | null
  meeting_place: string | null
  updated_at: string
}
export type Unit = Selectable<UnitTable>
