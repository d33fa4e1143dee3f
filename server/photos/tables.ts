// The event albums' tables: photos and the scouts tagged in them (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export interface PhotoTable {
  id: Generated<number>
  event_uid: string
  /** The event's unit when the photo came: whose families the album is for when the event is gone from the calendar. */
  unit: 'pack' | 'troop' | 'both'
  /** The size of the widest web size. */
  width: number
  height: number
  /** The blob names of its web sizes (JSON array, narrowest first): `w480.webp`, `w480.jpg`, … */
  variants: string
  uploaded_by_person_id: number | null
  uploaded_by: string
  uploaded_at: string
  reviewed_at: string | null
  reviewed_by: string | null
  public: Generated<number>
  /** A family of a tagged scout asked for it to come down: shown to leaders only from then on. */
  taken_down_at: string | null
  taken_down_by: string | null
}
export type Photo = Selectable<PhotoTable>

/** A scout in a photo; the scout id has no foreign key, so a scout gone from the roster leaves a tag that counts as no consent. */
export interface PhotoScoutTable {
  photo_id: number
  scout_id: number
}
