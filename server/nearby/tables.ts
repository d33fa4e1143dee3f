// The nearby units table's type (composed into Database by db/database.ts).
import type { Generated } from 'kysely'
import type { Weekday } from '../formats.ts'

export const NEARBY_UNIT_TYPES = ['pack', 'troop', 'crew', 'ship', 'post'] as const

export interface NearbyUnitTable {
  id: Generated<number>
  name: string
  unit_type: (typeof NEARBY_UNIT_TYPES)[number]
  unit_number: string | null
  town: string | null
  meeting_place: string | null
  meeting_day: Weekday | null
  meeting_time: string | null
  website: string | null
  contact_email: string | null
  notes: string | null
  verified_at: string | null
  active: 0 | 1
  created_at: string
  updated_at: string
}
