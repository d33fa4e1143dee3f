// `calendar-move-to-store`: the events the site kept itself go into a newly configured CalDAV collection with their
// uids, so replies, sign-ups and `mine` (all kept by uid) carry over untouched. One event at a time: an event is taken
// from the site's store only once the collection holds it, so a failure part way loses nothing and a rerun goes on.
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import { getSetting } from '../settings/registry.ts'
import { refreshCopy, storedEventWords } from './service.ts'
import type { CalDavStore } from './caldav-store.ts'

export interface MoveOutcome {
  moved: string[]
  /** Already in the collection under the same uid (an earlier run that stopped part way): taken from the site's store. */
  present: string[]
}

export async function moveToStore(db: Db, store: CalDavStore): Promise<MoveOutcome> {
  const timeZone = await getSetting(db, 'site.timezone')
  const waiting = await db.selectFrom('calendar_site_events').select(['uid', 'ics']).orderBy('changed_at').execute()
  const held = new Set((await store.list()).map((o) => o.uid))
  const outcome: MoveOutcome = { moved: [], present: [] }
  for (const { uid, ics } of waiting) {
    const words = storedEventWords(ics, timeZone) ?? uid
    if (held.has(uid)) outcome.present.push(words)
    else {
      await store.create(uid, ics)
      outcome.moved.push(words)
    }
    await write(db, async (trx) => {
      await trx.deleteFrom('calendar_site_events').where('uid', '=', uid).execute()
      await record(trx, 'system', 'calendar.move', `${words} moved to the CalDAV collection`)
    })
  }
  if (waiting.length) await refreshCopy(db, store)
  return outcome
}
