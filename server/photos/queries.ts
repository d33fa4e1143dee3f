// Reads of the event albums: one event's album as the caller may see it, the family page's albums, and one photo
// size for its URL, each through the rule in access.ts.
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { addDays } from '../calendar/zone.ts'
import { today } from '../settings/registry.ts'
import {
  albumEvent,
  attended,
  albumEventOrNull,
  type AlbumEvent,
  maySee,
  unitOf,
  onEvent,
  shownTo,
  tagsOf,
  type TagFacts,
  type Unit,
  viewerOf,
  type Viewer,
} from './access.ts'
import type { Photo } from './tables.ts'

const TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' }
export const typeOf = (name: string) => TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream'
const widthOf = (name: string) => Number(/^w(\d+)\./.exec(name)?.[1] ?? 0)

/** A photo as the caller sees it: tags and who sent it for leaders only. */
export function photoView(p: Photo, tags: TagFacts[], viewer: Viewer) {
  const names: string[] = JSON.parse(p.variants)
  const sizes = names.map((name) => {
    const width = Math.min(widthOf(name), p.width)
    return { url: `/photos/${p.id}/${name}`, type: typeOf(name), width, height: Math.round((p.height * width) / p.width) }
  })
  const fallback = sizes.filter((s) => s.type !== 'image/webp').at(-1) ?? sizes.at(-1)!
  return {
    id: p.id,
    event_uid: p.event_uid,
    width: p.width,
    height: p.height,
    url: fallback.url,
    sizes,
    uploaded_at: p.uploaded_at,
    reviewed: p.reviewed_at !== null,
    public: p.public === 1,
    taken_down: p.taken_down_at !== null,
    shown_to: shownTo(p, tags),
    yours: tags.some((t) => t.household_id !== null && viewer.own.includes(t.household_id)),
    ...(viewer.leader
      ? {
          scouts: tags.map((t) => ({ id: t.scout_id, name: t.name ?? 'A scout no longer on the roster', photo_consent: t.consent })),
          uploaded_by: p.uploaded_by,
        }
      : {}),
  }
}

/** The photos of events whose uid is given, each with its tags, seen by `viewerFor` (one viewer per unit). */
async function visible(db: Executor, photos: Photo[], viewerFor: (p: Photo) => Viewer) {
  const tags = await tagsOf(
    db,
    photos.map((p) => p.id),
  )
  return photos
    .map((p) => ({ p, tags: tags.get(p.id) ?? [], viewer: viewerFor(p) }))
    .filter(({ p, tags, viewer }) => maySee(viewer, shownTo(p, tags)))
    .map(({ p, tags, viewer }) => photoView(p, tags, viewer))
}

/**
 * The scouts a leader may tag: those of the event's units in active households, those who were on the event first (a
 * confirmed yes naming them, or recorded present), then the rest, each by name: a phone shows the likely ones at once.
 */
async function taggable(db: Executor, uid: string, unit: Unit) {
  const rows = await db
    .selectFrom('scouts')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .innerJoin('households', 'households.id', 'scouts.household_id')
    .select(['scouts.id', 'scouts.first_name', 'scouts.preferred_name', 'scouts.last_name', 'scouts.photo_consent'])
    .where('households.active', '=', 1)
    .where('units.slug', 'in', unit === 'both' ? ['pack', 'troop'] : [unit])
    .orderBy('scouts.first_name')
    .orderBy('scouts.id')
    .execute()
  const on = await scoutsOnEvent(db, uid)
  return rows
    .map((r) => ({
      id: r.id,
      name: [r.preferred_name ?? r.first_name, r.last_name].filter(Boolean).join(' '),
      photo_consent: r.photo_consent === 1,
    }))
    .sort((a, b) => Number(on.has(b.id)) - Number(on.has(a.id)))
}

/**
 * The scouts of the event's confirmed yes replies (those named, or every scout of a household that gave a number), and
 * those recorded present at it (at any of its days).
 */
async function scoutsOnEvent(db: Executor, uid: string): Promise<Set<number>> {
  const replies = await db
    .selectFrom('rsvps')
    .select(['household_id', 'scout_ids'])
    .where('uid', '=', uid)
    .where('answer', '=', 'yes')
    .where('status', '=', 'confirmed')
    .execute()
  const counted = replies.filter((r) => !r.scout_ids).map((r) => r.household_id)
  const ofCounted = counted.length ? await db.selectFrom('scouts').select('id').where('household_id', 'in', counted).execute() : []
  const present = await db
    .selectFrom('attendance')
    .select('scout_id')
    // A one-time event's key is its uid, a repeating one's `<uid>#<date>` (attendance/occurrence.ts): `<uid>#` to `<uid>$`.
    .where((eb) => eb.or([eb('event_uid', '=', uid), eb.and([eb('event_uid', '>=', `${uid}#`), eb('event_uid', '<', `${uid}$`)])]))
    .where('present', '=', 1)
    .execute()
  return new Set([
    ...replies.flatMap((r) => (r.scout_ids ? (JSON.parse(r.scout_ids) as number[]) : [])),
    ...ofCounted.map((r) => r.id),
    ...present.map((a) => a.scout_id),
  ])
}

/** GET /api/admin/calendar/{uid}/photos: the photos the caller may see, oldest first; 404 for an unknown event. */
export async function album(db: Executor, caller: Caller, uid: string) {
  const event = await albumEvent(db, uid)
  const viewer = await viewerOf(db, caller, event.unit)
  const photos = await db.selectFrom('photos').selectAll().where('event_uid', '=', uid).orderBy('id').execute()
  return {
    ...event,
    leader: viewer.leader,
    can_upload: viewer.leader || (await onEvent(db, uid, viewer.households)),
    photos: await visible(db, photos, () => viewer),
    ...(viewer.leader ? { taggable: await taggable(db, uid, event.unit) } : {}),
  }
}

/** How long after an event its album waits on the family page for a first photo (docs/decisions/0165). */
export const UPLOAD_DAYS = 30

/**
 * The events the caller's households were on (a confirmed yes, or a scout recorded present) that took place in the
 * last UPLOAD_DAYS days, up to today: albums a family may start with the first photo.
 */
async function recentlyOn(db: Executor, households: number[]): Promise<AlbumEvent[]> {
  if (!households.length) return []
  const until = await today(db)
  const from = addDays(until, -UPLOAD_DAYS)
  const replied = await db
    .selectFrom('rsvps')
    .innerJoin('rsvp_events', 'rsvp_events.uid', 'rsvps.uid')
    .select(['rsvps.uid', 'rsvp_events.date'])
    .distinct()
    .where('rsvps.household_id', 'in', households)
    .where('rsvps.answer', '=', 'yes')
    .where('rsvps.status', '=', 'confirmed')
    .where('rsvp_events.date', '>=', from)
    .where('rsvp_events.date', '<=', until)
    .execute()
  const uids = new Set(replied.map((r) => r.uid))
  const came = await attended(db, households)
  const events: AlbumEvent[] = []
  for (const uid of new Set([...uids, ...came.map((a) => a.uid)])) {
    const event = await albumEventOrNull(db, uid)
    if (!event) continue
    // A meeting of a repeating event counts by its own day; a one-time event by its first.
    const days = [...(uids.has(uid) ? [event.date] : []), ...came.filter((a) => a.uid === uid).map((a) => a.date ?? event.date)]
    if (days.some((d) => d >= from && d <= until)) events.push(event)
  }
  return events
}

/**
 * The family page's albums, newest event first: every event of the caller's units with a photo they may see, and the
 * recent events their households were on, which they may add photos to even before there is one (`photos: []`).
 */
export async function familyAlbums(db: Executor, caller: Caller) {
  const viewers = new Map<Unit, Viewer>()
  for (const unit of ['pack', 'troop', 'both'] as const) viewers.set(unit, await viewerOf(db, caller, unit))
  const units = [...viewers].filter(([, v]) => v.households.length || v.leader).map(([u]) => u)
  if (!units.length) return { albums: [] }
  const photos = await db.selectFrom('photos').selectAll().where('unit', 'in', units).orderBy('id').execute()
  const events = new Map<string, AlbumEvent | null>()
  for (const uid of new Set(photos.map((p) => p.event_uid))) events.set(uid, await albumEventOrNull(db, uid))
  // The event's unit now decides (it may have changed since the photo came); a deleted event's photos keep the old one.
  const unitOf = (p: Photo) => events.get(p.event_uid)?.unit ?? p.unit
  const shown = await visible(db, photos, (p) => viewers.get(unitOf(p))!)
  const withPhotos = [...events.values()]
    .filter((e): e is AlbumEvent => e !== null)
    .map((e) => ({ ...e, photos: shown.filter((p) => p.event_uid === e.uid) }))
    .filter((a) => a.photos.length)
  const toStart = (await recentlyOn(db, viewers.get('both')!.households))
    .filter((e) => !withPhotos.some((a) => a.uid === e.uid))
    .map((e) => ({ ...e, photos: [] as typeof shown }))
  const albums = []
  for (const a of [...withPhotos, ...toStart].sort((x, y) => y.date.localeCompare(x.date))) {
    const viewer = viewers.get(a.unit)!
    const can_upload = viewer.leader || (await onEvent(db, a.uid, viewer.households))
    if (a.photos.length || can_upload) albums.push({ ...a, leader: viewer.leader, can_upload })
  }
  return { albums }
}

/**
 * One size of a photo for its URL, or 404 — the same answer for an unknown photo, an unknown size and a photo the
 * caller may not see, so a URL tells nobody whether a photo exists.
 */
export async function photoSize(db: Executor, caller: Caller | null, id: number, name: string) {
  const photo = await db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirst()
  if (!photo || !(JSON.parse(photo.variants) as string[]).includes(name)) throw notFound()
  const unit = await unitOf(db, photo)
  const viewer = caller ? await viewerOf(db, caller, unit) : { leader: false, households: [], own: [] }
  const tags = (await tagsOf(db, [id])).get(id) ?? []
  const shown = shownTo(photo, tags)
  if (!maySee(viewer, shown)) throw notFound()
  return { photo, shown, type: typeOf(name) }
}
