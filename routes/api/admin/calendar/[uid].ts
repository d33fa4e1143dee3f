// PUT/DELETE /api/admin/calendar/:uid: replace or delete an event the site created; others' events are read-only (403).
import { t } from '../../../../server/schemas.ts'
import { toICalendar } from '../../../../server/calendar/event.ts'
import { EventBody, eventFrom, notConfigured, refreshCopy } from '../../../../server/calendar/service.ts'
import type { CalendarStore } from '../../../../server/calendar/store.ts'
import { forbidden, notFound } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import type { Executor } from '../../../../server/history/record.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { getSetting } from '../../../../server/settings/registry.ts'

const UidParams = t.Object({ uid: t.String({ minLength: 1, maxLength: 300 }) })

/** 403 before anything reaches the store when the site did not create the uid. */
async function assertMine(db: Executor, uid: string) {
  if (!(await db.selectFrom('calendar_uids').select('uid').where('uid', '=', uid).executeTakeFirst()))
    throw forbidden('This event was not created by the site; edit it in the calendar app that made it')
}

/** The resource as last seen (its url and etag); 404 when the store no longer holds it. */
async function current(db: Executor, calendar: CalendarStore, uid: string) {
  const known = await db.selectFrom('calendar_objects').select(['url', 'etag']).where('uid', '=', uid).executeTakeFirst()
  if (known) return known
  const live = (await calendar.list()).find((o) => o.uid === uid)
  if (!live) throw notFound('No such event (it may have been deleted)')
  return live
}

export const PUT = defineRoute({
  auth: 'calendar:write',
  summary: "Replace an event the site created (full body); another client's event is 403; a change made meanwhile is 409",
  params: UidParams,
  body: EventBody,
  async handler({ db, params, body, caller, calendar, publicDataChanged }) {
    await assertMine(db, params.uid)
    const event = eventFrom(body)
    if (!calendar) throw notConfigured()
    const { url, etag } = await current(db, calendar, params.uid)
    await calendar.update(url, etag, toICalendar(params.uid, event, await getSetting(db, 'site.timezone')))
    await record(db, caller.actor, 'calendar.update', `Event "${event.title}" on ${event.date} (${params.uid})`)
    await refreshCopy(db, calendar)
    publicDataChanged()
    return { uid: params.uid, ...event, mine: true }
  },
})

export const DELETE = defineRoute({
  auth: 'calendar:write',
  summary: 'Delete an event the site created (a real deletion; again 404)',
  params: UidParams,
  async handler({ db, params, caller, calendar, publicDataChanged }) {
    await assertMine(db, params.uid)
    if (!calendar) throw notConfigured()
    const { url, etag } = await current(db, calendar, params.uid)
    await calendar.remove(url, etag)
    await record(db, caller.actor, 'calendar.delete', `Deleted event ${params.uid}`)
    await refreshCopy(db, calendar)
    publicDataChanged()
    return { uid: params.uid, deleted: true }
  },
})
