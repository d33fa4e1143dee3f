// Nearby unit fields, shared by create and edit; `today` in the site's time zone for verified_at.
import type { Executor } from '../history/record.ts'
import { DateString, t, Time24, Weekday } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'

export const UNIT_TYPES = ['pack', 'troop', 'crew', 'ship', 'post'] as const
const text = (max: number) => t.Optional(t.Union([t.String({ maxLength: max }), t.Null()]))

export const nearbyFields = {
  unit_number: text(20),
  town: text(100),
  meeting_place: text(200),
  meeting_day: t.Optional(t.Union([Weekday, t.Null()])),
  meeting_time: t.Optional(t.Union([Time24, t.Null()])),
  website: t.Optional(t.Union([t.String({ maxLength: 500, pattern: '^https?://', error: 'must be an http(s) address' }), t.Null()])),
  contact_email: t.Optional(t.Union([t.String({ format: 'email', maxLength: 254 }), t.Null()])),
  notes: text(2000),
  verified_at: t.Optional(t.Union([DateString, t.Null()])),
}
export const Name = t.String({ minLength: 1, maxLength: 200 })
export const UnitType = t.Union(
  UNIT_TYPES.map((u) => t.Literal(u)),
  { error: `must be one of ${UNIT_TYPES.join(', ')}` },
)

/** Today's date (YYYY-MM-DD) in the site's time zone. */
export async function today(db: Executor): Promise<string> {
  return new Intl.DateTimeFormat('en-CA', { timeZone: await getSetting(db, 'site.timezone') }).format(new Date())
}
