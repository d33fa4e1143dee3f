// The announcements table's type (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export const ANNOUNCEMENT_UNITS = ['pack', 'troop', 'both'] as const
export type AnnouncementUnit = (typeof ANNOUNCEMENT_UNITS)[number]

export interface AnnouncementTable {
  id: Generated<number>
  message: string
  starts_at: string
  ends_at: string
  created_at: string
  created_by: string
  revoked_at: string | null
  /** Whose pages show it: pack, troop or both (every page). */
  unit: Generated<AnnouncementUnit>
}
export type Announcement = Selectable<AnnouncementTable>
