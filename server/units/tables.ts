// The units table's types (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'
import type { Weekday } from '../formats.ts'

export const UNIT_SLUGS = ['pack', 'troop'] as const

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
