// The public site's photos page: the photos anyone may open now (access.ts: marked public, reviewed, not taken down,
// every tagged scout with consent), by event, newest event first. What the page needs and no more: no tags, no
// uploader. An event for members only, or gone from the calendar, is named by its unit alone (docs/decisions/0172).
import { titleAndUnitOf } from '../calendar/event.ts'
import type { Executor } from '../db/database.ts'
import { UNIT_WORDS } from '../words.ts'
import { albumEventOrNull, shownTo, tagsOf, type Viewer } from './access.ts'
import { photoView } from './queries.ts'

const ANYONE: Viewer = { leader: false, households: [], own: [] }
/** The photos a leader marked public and no family asked to take down (consent is read from their tags). */
const markedPublic = (db: Executor) => db.selectFrom('photos').where('public', '=', 1).where('taken_down_at', 'is', null)

export async function publicAlbums(db: Executor) {
  const marked = await markedPublic(db).selectAll().orderBy('id').execute()
  const tags = await tagsOf(
    db,
    marked.map((p) => p.id),
  )
  const shown = marked.filter((p) => shownTo(p, tags.get(p.id) ?? []) === 'everyone')
  const albums = []
  for (const uid of new Set(shown.map((p) => p.event_uid))) {
    const photos = shown.filter((p) => p.event_uid === uid)
    const event = await albumEventOrNull(db, uid)
    const copy = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirst()
    const facts = copy && titleAndUnitOf(copy.ics)
    const unit = event?.unit ?? photos[0].unit
    albums.push({
      uid,
      title: facts && !facts.members ? facts.title : `A ${UNIT_WORDS[unit].toLowerCase()} event`,
      date: event?.date ?? photos[0].uploaded_at.slice(0, 10),
      photos: photos.map((p) => {
        const { id, width, height, url, sizes } = photoView(p, [], ANYONE)
        return { id, width, height, url, sizes }
      }),
    })
  }
  return albums.sort((a, b) => b.date.localeCompare(a.date))
}

/**
 * After a change of a scout's photo consent or a household's activity, which decide with the public mark who sees a
 * photo: the public pages are rebuilt when there is a public photo the change may show or hide.
 */
export async function consentChanged(db: Executor, publicDataChanged: () => void): Promise<void> {
  if (await markedPublic(db).select('id').executeTakeFirst()) publicDataChanged()
}
