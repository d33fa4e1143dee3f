// GET/POST /api/admin/calendar: every event the public calendar shows (with `mine`); create an event in the store.
import { record } from '../../../../server/history/record.ts'
import { toICalendar } from '../../../../server/calendar/event.ts'
import { EventBody, eventFrom, eventsOf, notConfigured, refreshCopy } from '../../../../server/calendar/service.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { nowIso } from '../../../../server/schemas.ts'
import { getSetting } from '../../../../server/settings/registry.ts'

export const GET = defineRoute({
  auth: 'calendar:write',
  summary: 'Every event the public calendar shows, in date order, each with `mine`; and `configured`',
  async handler({ db, calendar }) {
    if (!calendar) return { configured: false, events: [] }
    const objects = await refreshCopy(db, calendar)
    return { configured: true, events: await eventsOf(db, objects) }
  },
})

export const POST = defineRoute({
  auth: 'calendar:write',
  summary: 'Create an event in the calendar store (502 when the store refuses)',
  body: EventBody,
  async handler({ db, body, caller, calendar, set, publicDataChanged }) {
    const event = eventFrom(body)
    if (!calendar) throw notConfigured()
    const uid = `${crypto.randomUUID()}@scouting-units-site`
    const ics = toICalendar(uid, event, await getSetting(db, 'site.timezone'))
    await calendar.create(uid, ics)
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('calendar_uids').values({ uid, created_at: nowIso() }).execute()
      await record(trx, caller.actor, 'calendar.create', `Event "${event.title}" on ${event.date} (${uid})`)
    })
    // Refresh the copy (and the etag the next edit must match) from the store itself.
    await refreshCopy(db, calendar)
    publicDataChanged()
    set.status = 201
    return { uid, ...event, mine: true }
  },
})
