// Writes of the event albums: a photo added (its web sizes made and stored), tagged, reviewed or marked public, taken
// down at a family's ask (the leaders told by mail), and deleted. Each change and its action-log entry commit together.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../errors.ts'
import { GB, tooManyPixels } from '../files/files.ts'
import type { FileStore } from '../files/store.ts'
import { TooManyPixels, webSizes, type WebImage } from '../files/images.ts'
import { sniff } from '../files/types.ts'
import { compose } from '../mail/compose.ts'
import { queueMail } from '../mail/outbox.ts'
import { nowIso } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { albumEvent, albumEventOrNull, type AlbumEvent, maySee, onEvent, shownTo, tagsOf, viewerOf } from './access.ts'
import { photoView } from './queries.ts'
import type { Photo } from './tables.ts'

/** Blobs of photos live under this kind in the file store. */
export const PHOTOS = 'photos'

/** The photo and its event, with the caller as that event's album sees them; 404 for an unknown photo. */
async function photoFor(db: Executor, caller: Caller, id: number) {
  const photo = await db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirst()
  if (!photo) throw notFound('No such photo')
  const event = (await albumEventOrNull(db, photo.event_uid)) ?? {
    uid: photo.event_uid,
    title: 'a deleted event',
    date: '',
    unit: photo.unit,
  }
  const viewer = await viewerOf(db, caller, event.unit)
  const tags = (await tagsOf(db, [id])).get(id) ?? []
  return { photo, event, viewer, tags }
}

/** A photo for leaders of its event's units only: 403 for a leader of another unit (families never reach these routes). */
async function ledPhoto(db: Executor, caller: Caller, id: number) {
  const found = await photoFor(db, caller, id)
  if (!found.viewer.leader)
    throw forbidden(`This photo is from an event of the ${found.event.unit}, a unit you do not lead`, 'unit_out_of_scope')
  return found
}

const viewOf = async (db: Executor, caller: Caller, id: number) => {
  const { photo, viewer, tags } = await photoFor(db, caller, id)
  return photoView(photo, tags, viewer)
}

/** GET /api/admin/photos/{id}: the photo as its album shows it to the caller; 404 when it does not show it. */
export async function photoById(db: Executor, caller: Caller, id: number) {
  const { photo, viewer, tags } = await photoFor(db, caller, id)
  if (!maySee(viewer, shownTo(photo, tags))) throw notFound('No such photo')
  return photoView(photo, tags, viewer)
}

const eventWords = (e: Pick<AlbumEvent, 'title' | 'date'>) => `"${e.title}"${e.date ? ` (${e.date})` : ''}`

/**
 * POST /api/admin/calendar/{uid}/photos: leaders of the event's units, and families on it (a confirmed sign-up, or a
 * scout recorded present), add a photo. Only its web sizes are kept (every metadata block dropped); it waits for a leader's review.
 */
export async function addPhoto(
  db: Db,
  files: FileStore,
  caller: Caller,
  uid: string,
  upload: () => Promise<{ name: string; bytes: Uint8Array }>,
) {
  const event = await albumEvent(db, uid)
  const viewer = await viewerOf(db, caller, event.unit)
  if (!viewer.leader && !(await onEvent(db, uid, viewer.households)))
    throw forbidden(
      'Only leaders of this event’s unit and families on it (signed up and confirmed, or their scout recorded present) can add photos',
      'not_on_event',
    )
  // Read only once the caller may add one: nobody else makes the service take in 20 MB.
  const { name, bytes } = await upload()
  const kind = await sniff(bytes, name)
  if (!kind.ok || !kind.image) throw unprocessable('file: send a photo (JPEG, PNG, WebP or HEIC)', 'not_an_image', 'file')
  let web: WebImage
  try {
    web = await webSizes(bytes, kind.mime)
  } catch (error) {
    if (error instanceof TooManyPixels) throw tooManyPixels()
    throw unprocessable(
      'file: the image could not be read (a damaged file, or a kind of image this site cannot open)',
      'image_unreadable',
      'file',
    )
  }
  const capGb = await getSetting(db, 'files.total_gb')
  if (files.usage() + web.variants.reduce((n, v) => n + v.bytes.byteLength, 0) > capGb * GB)
    throw new HttpError(
      507,
      `There is no room for this photo: uploaded files and photos may use ${capGb} GB (files.total_gb) and that is nearly all used. Delete photos or files no longer needed, or ask an admin to raise the limit.`,
      { code: 'files_full' },
    )
  const id = await write(db, async (trx) => {
    const row = await trx
      .insertInto('photos')
      .values({
        event_uid: uid,
        unit: event.unit,
        width: web.width,
        height: web.height,
        variants: JSON.stringify(web.variants.map((v) => v.name)),
        uploaded_by_person_id: caller.person?.id ?? null,
        uploaded_by: caller.actor,
        uploaded_at: nowIso(),
        reviewed_at: null,
        reviewed_by: null,
        taken_down_at: null,
        taken_down_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    // Written inside the transaction: a failed write rolls the row back, and its folder goes below.
    try {
      for (const v of web.variants) await files.put(PHOTOS, String(row.id), v.name, v.bytes)
    } catch (error) {
      files.remove(PHOTOS, String(row.id))
      throw error
    }
    await record(trx, caller.actor, 'photos.upload', `Photo #${row.id} added to the album of ${eventWords(event)}`)
    return row.id
  })
  return viewOf(db, caller, id)
}

/** PUT /api/admin/photos/{id}/scouts: the whole list of scouts in the photo. A change asks for a new review. */
export async function tagPhoto(db: Db, caller: Caller, id: number, scoutIds: number[]) {
  await write(db, async (trx) => {
    const { photo, tags } = await ledPhoto(trx, caller, id)
    const known = scoutIds.length ? await trx.selectFrom('scouts').select('id').where('id', 'in', scoutIds).execute() : []
    const unknown = scoutIds.filter((s) => !known.some((k) => k.id === s))
    // A tag already there may stay even when its scout has left the roster; a new one must name a scout on it.
    const newUnknown = unknown.filter((s) => !tags.some((t) => t.scout_id === s))
    if (newUnknown.length) throw unprocessable(`scout_ids: no scout ${newUnknown.join(', ')}`, 'unknown_scout', 'scout_ids')
    const before = tags.map((t) => t.scout_id).sort((a, b) => a - b)
    const after = [...scoutIds].sort((a, b) => a - b)
    await trx.deleteFrom('photo_scouts').where('photo_id', '=', id).execute()
    if (after.length)
      await trx
        .insertInto('photo_scouts')
        .values(after.map((scout_id) => ({ photo_id: id, scout_id })))
        .execute()
    const changed = before.join() !== after.join()
    // New tags are a new photo to review: what families may see was decided for the old ones.
    if (changed) await trx.updateTable('photos').set({ reviewed_at: null, reviewed_by: null, public: 0 }).where('id', '=', id).execute()
    await record(
      trx,
      caller.actor,
      'photos.tag',
      `Photo #${id}: ${after.length} scout${after.length === 1 ? '' : 's'} tagged${changed && photo.reviewed_at ? '; it waits for a new review' : ''}`,
    )
  })
  return viewOf(db, caller, id)
}

/** PATCH /api/admin/photos/{id}: reviewed (families may see it) and public (anyone may); public implies reviewed. */
export async function reviewPhoto(db: Db, caller: Caller, id: number, change: { reviewed?: boolean; public?: boolean }) {
  await write(db, async (trx) => {
    const { photo, tags } = await ledPhoto(trx, caller, id)
    if (photo.taken_down_at)
      throw conflict('A family asked for this photo to come down: it stays with leaders only; delete it, or keep it as it is', 'taken_down')
    const reviewed = change.public === true ? true : (change.reviewed ?? photo.reviewed_at !== null)
    const isPublic = reviewed && (change.public ?? photo.public === 1)
    if (isPublic && tags.some((t) => !t.consent))
      throw unprocessable(
        'public: a scout tagged in this photo has no photo consent, so it cannot be public',
        'scout_without_consent',
        'public',
      )
    const next: Partial<Photo> = reviewed
      ? { reviewed_at: photo.reviewed_at ?? nowIso(), reviewed_by: photo.reviewed_by ?? caller.actor, public: isPublic ? 1 : 0 }
      : { reviewed_at: null, reviewed_by: null, public: 0 }
    await trx.updateTable('photos').set(next).where('id', '=', id).execute()
    const shown = shownTo({ ...photo, ...next }, tags)
    await record(trx, caller.actor, 'photos.review', `Photo #${id}: ${reviewed ? 'reviewed' : 'not reviewed'}, shown to ${shown}`)
  })
  return viewOf(db, caller, id)
}

/**
 * POST /api/admin/photos/{id}/takedown: a family of a scout tagged in the photo asks for it to come down. It is hidden
 * from everyone but leaders at once, and the leaders of the event's units are told by mail (which carries no photo).
 */
export async function takeDown(db: Db, caller: Caller, id: number, note: string | null, publicBaseUrl: string) {
  return write(db, async (trx) => {
    const { photo, event, viewer, tags } = await photoFor(trx, caller, id)
    const own = tags.some((t) => t.household_id !== null && viewer.own.includes(t.household_id))
    if (!own) {
      if (maySee(viewer, shownTo(photo, tags)))
        throw forbidden('Only a family of a scout tagged in this photo can ask for it to come down', 'not_your_scout')
      throw notFound('No such photo')
    }
    if (photo.taken_down_at) {
      await record(trx, caller.actor, 'photos.takedown', `Photo #${id}: asked again to come down (it already is)`)
      return { id, taken_down: true as const }
    }
    await trx.updateTable('photos').set({ taken_down_at: nowIso(), taken_down_by: caller.actor, public: 0 }).where('id', '=', id).execute()
    await tellLeaders(trx, event, id, note, publicBaseUrl)
    await record(trx, caller.actor, 'photos.takedown', `Photo #${id} in the album of ${eventWords(event)} taken down at a family’s ask`)
    return { id, taken_down: true as const }
  })
}

async function tellLeaders(trx: Executor, event: AlbumEvent, id: number, note: string | null, publicBaseUrl: string) {
  const leaders = await trx
    .selectFrom('memberships')
    .innerJoin('people', 'people.id', 'memberships.person_id')
    .innerJoin('units', 'units.id', 'memberships.unit_id')
    .select('people.email')
    .distinct()
    .where('memberships.role', '=', 'leader')
    .where('units.slug', 'in', event.unit === 'both' ? ['pack', 'troop'] : [event.unit])
    .where('people.disabled_at', 'is', null)
    .execute()
  const letter = await compose(trx, {
    subject: `A family asked for a photo to come down`,
    paragraphs: [
      `A family asked for photo #${id} in the album of ${eventWords(event)} to come down, because their scout is in it. It is hidden from families and visitors already.`,
      ...(note ? [`They wrote: ${note}`] : []),
      'Look at it in the album: delete it, or keep it for leaders only.',
    ],
    link: { label: 'Open the album', url: `${publicBaseUrl}/admin/calendar/photos/?uid=${encodeURIComponent(event.uid)}` },
    why: 'You get this mail because you lead the unit whose event the photo is from.',
  })
  await queueMail(
    trx,
    leaders.map((l) => ({ kind: 'photo_takedown' as const, to: l.email, ...letter })),
  )
}

/** DELETE /api/admin/photos/{id}: the row, its tags and, after the commit, its web sizes. Answers it as it was. */
export async function deletePhoto(db: Db, files: FileStore, caller: Caller, id: number) {
  const was = await write(db, async (trx) => {
    const { photo, event, viewer, tags } = await ledPhoto(trx, caller, id)
    await trx.deleteFrom('photos').where('id', '=', id).execute()
    await record(trx, caller.actor, 'photos.delete', `Photo #${id} deleted from the album of ${eventWords(event)}`)
    return photoView(photo, tags, viewer)
  })
  files.remove(PHOTOS, String(id))
  return was
}
