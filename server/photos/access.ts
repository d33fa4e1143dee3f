// Who may see which photo: the one rule the album, the family page and the photo URLs all ask. Leaders of the event's
// units see every photo; families of those units see a reviewed one; anyone sees one a leader marked public. A photo
// taken down, or with a tagged scout who lacks consent (or has left the roster), is for leaders only.
import { parseAttendanceKey } from '../attendance/occurrence.ts'
import type { Caller } from '../auth/credential.ts'
import { leadsSlug } from '../auth/led-units.ts'
import { firstOccurrence, titleAndUnitOf } from '../calendar/event.ts'
import type { Executor } from '../db/database.ts'
import { HttpError, notFound } from '../errors.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { getSetting } from '../settings/registry.ts'
import type { SHOWN_TO } from './schemas.ts'
import type { Photo } from './tables.ts'

export type Unit = 'pack' | 'troop' | 'both'
export interface AlbumEvent {
  uid: string
  title: string
  date: string
  unit: Unit
}

/** The event as the calendar's local copy holds it, or as its replies last saw it (an event since deleted); else 404. */
export async function albumEvent(db: Executor, uid: string): Promise<AlbumEvent> {
  const copy = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirst()
  const first = copy && firstOccurrence(copy.ics, await getSetting(db, 'site.timezone'))
  if (first) return { uid, title: first.title, date: first.date, unit: first.unit }
  const asked = await db.selectFrom('rsvp_events').select(['title', 'date', 'unit']).where('uid', '=', uid).executeTakeFirst()
  if (asked) return { uid, ...asked }
  throw notFound('No such event (it may have been deleted)')
}

/** The event, or null when neither the calendar nor the replies know it any more (other failures still throw). */
export const albumEventOrNull = (db: Executor, uid: string) =>
  albumEvent(db, uid).catch((error) => {
    if (error instanceof HttpError && error.status === 404) return null
    throw error
  })

/** Just the event's unit (no occurrences worked out), for each photo URL: the unit the photo came with when the event is gone. */
export async function unitOf(db: Executor, photo: { event_uid: string; unit: Unit }): Promise<Unit> {
  const copy = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', photo.event_uid).executeTakeFirst()
  const facts = copy && titleAndUnitOf(copy.ics)
  if (facts) return facts.unit
  const asked = await db.selectFrom('rsvp_events').select('unit').where('uid', '=', photo.event_uid).executeTakeFirst()
  return asked?.unit ?? photo.unit
}

/** The caller as one event's album sees them. */
export interface Viewer {
  leader: boolean
  /** The caller's active households with a scout in the event's units. */
  households: number[]
  /** All the caller's own active households: a family of a tagged scout from another unit may still ask for a takedown. */
  own: number[]
}

const slugsOf = (unit: Unit) => (unit === 'both' ? (['pack', 'troop'] as const) : ([unit] as const))

/** Of the caller's own households, those with a scout in `unit` (either unit for `both`). */
async function householdsIn(db: Executor, own: number[], unit: Unit): Promise<number[]> {
  if (!own.length) return []
  const rows = await db
    .selectFrom('scouts')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .select('scouts.household_id')
    .distinct()
    .where('scouts.household_id', 'in', own)
    .where('units.slug', 'in', [...slugsOf(unit)])
    .execute()
  return rows.map((r) => r.household_id)
}

export async function viewerOf(db: Executor, caller: Caller | null, unit: Unit): Promise<Viewer> {
  const leader = !!caller && caller.capabilities.has('calendar:write') && leadsSlug(caller, unit)
  const own = caller ? await ownHouseholdIds(db, caller) : []
  return { leader, households: await householdsIn(db, own, unit), own }
}

/** A tagged scout as the rule reads them: consent only from a scout still on the roster, in an active household. */
export interface TagFacts {
  photo_id: number
  scout_id: number
  household_id: number | null
  name: string | null
  consent: boolean
}

export async function tagsOf(db: Executor, photoIds: number[]): Promise<Map<number, TagFacts[]>> {
  const byPhoto = new Map<number, TagFacts[]>()
  if (!photoIds.length) return byPhoto
  const rows = await db
    .selectFrom('photo_scouts')
    .leftJoin('scouts', 'scouts.id', 'photo_scouts.scout_id')
    .leftJoin('households', 'households.id', 'scouts.household_id')
    .select([
      'photo_scouts.photo_id',
      'photo_scouts.scout_id',
      'scouts.household_id',
      'scouts.first_name',
      'scouts.preferred_name',
      'scouts.last_name',
      'scouts.photo_consent',
      'households.active',
    ])
    .where('photo_scouts.photo_id', 'in', photoIds)
    .orderBy('photo_scouts.scout_id')
    .execute()
  for (const r of rows) {
    const tag: TagFacts = {
      photo_id: r.photo_id,
      scout_id: r.scout_id,
      household_id: r.household_id,
      name: r.first_name === null ? null : [r.preferred_name ?? r.first_name, r.last_name].filter(Boolean).join(' '),
      consent: r.photo_consent === 1 && r.active === 1,
    }
    byPhoto.set(r.photo_id, [...(byPhoto.get(r.photo_id) ?? []), tag])
  }
  return byPhoto
}

/** Who may open the photo now. */
export function shownTo(photo: Pick<Photo, 'reviewed_at' | 'public' | 'taken_down_at'>, tags: TagFacts[]): (typeof SHOWN_TO)[number] {
  if (photo.taken_down_at || !photo.reviewed_at || tags.some((t) => !t.consent)) return 'leaders'
  return photo.public ? 'everyone' : 'families'
}

export function maySee(viewer: Viewer, shown: (typeof SHOWN_TO)[number]): boolean {
  return viewer.leader || shown === 'everyone' || (shown === 'families' && viewer.households.length > 0)
}

/**
 * A household is on the event when it has a confirmed yes, or a leader recorded one of its scouts present (at the
 * event, or at one meeting of a repeating one): those families may add photos (docs/decisions/0150, 0165).
 */
export async function onEvent(db: Executor, uid: string, households: number[]): Promise<boolean> {
  if (!households.length) return false
  const row = await db
    .selectFrom('rsvps')
    .select('household_id')
    .where('uid', '=', uid)
    .where('household_id', 'in', households)
    .where('answer', '=', 'yes')
    .where('status', '=', 'confirmed')
    .executeTakeFirst()
  return !!row || (await attended(db, households)).some((a) => a.uid === uid)
}

/** The events (by uid, with the day) at which a leader recorded a scout of these households present. */
export async function attended(db: Executor, households: number[]): Promise<{ uid: string; date: string | null }[]> {
  if (!households.length) return []
  const rows = await db
    .selectFrom('attendance')
    .innerJoin('scouts', 'scouts.id', 'attendance.scout_id')
    .select('attendance.event_uid')
    .distinct()
    .where('scouts.household_id', 'in', households)
    .where('attendance.present', '=', 1)
    .execute()
  return rows.map((r) => {
    const { uid, date } = parseAttendanceKey(r.event_uid)
    return { uid, date: date ?? null }
  })
}
