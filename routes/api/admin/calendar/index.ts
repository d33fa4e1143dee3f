// GET/POST /api/admin/calendar: every event the public calendar shows (with `mine`); create an event in the store.
import { EventBody, EventList, EventListQuery, EventView } from '#server/calendar/schemas.ts'
import { createEvent, listEvents } from '#server/calendar/service.ts'
import { signupMail } from '#server/calendar/signup-mail.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

const STORE_FAILED = 'The calendar store refused or did not answer'

export const GET = defineRoute('calendar:write', 'List events', {
  operationId: 'listEvents',
  description:
    'Every event the public calendar shows, read from the store now, earliest first, repeats expanded, each with `mine`. ' +
    'When the CalDAV store does not answer, the last good copy with `unreachable`. With `past_days`, also the events of ' +
    'that many days before today (to take attendance after the fact).',
  query: EventListQuery,
  responses: ok(EventList, 'The events, and where they are kept'),
  handler: ({ db, calendar, query }) => listEvents(db, calendar, query.past_days),
})

export const POST = defineRoute('calendar:write', 'Create an event', {
  operationId: 'createEvent',
  description: 'Written to the calendar store (CalDAV, or the site itself) as one VEVENT; the site records that it owns it.',
  body: EventBody,
  publishes: true,
  responses: created(EventView, 'The new event', {
    403: { description: 'unit: a unit you do not lead', codes: ['unit_out_of_scope'] },
    422: {
      description:
        'A missing title or date, an end before the date, an end_time without a time, sign-up settings without rsvp, or a time the clocks skip in the site time zone',
      codes: ['nonexistent_local_time'],
    },
    502: STORE_FAILED,
  }),
  async handler({ db, env, calendar, caller, body, mail }) {
    const made = await createEvent(db, calendar, caller, body, signupMail(mail, env))
    mail?.wake()
    return made
  },
})
