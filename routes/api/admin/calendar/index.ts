// GET/POST /api/admin/calendar: every event the public calendar shows (with `mine`); create an event in the store.
import { createEvent, EventBody, EventList, EventView, listEvents } from '#server/calendar/service.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'calendar:write',
  summary: 'Every event the public calendar shows, in date order, each with `mine`; and `configured`',
  responses: {
    200: { description: 'The events, read from the store now', schema: EventList },
    502: 'The calendar store refused or did not answer',
  },
  handler: ({ db, calendar }) => listEvents(db, calendar),
})

export const POST = defineRoute({
  auth: 'calendar:write',
  summary: 'Create an event in the calendar store (502 when the store refuses)',
  body: EventBody,
  publishes: true,
  responses: {
    201: { description: 'The new event', schema: EventView },
    409: 'No calendar store is configured',
    422: 'A missing title or date, an end before the date, an end_time without a time, or a field that does not fit',
    502: 'The calendar store refused or did not answer',
  },
  handler: ({ db, calendar, caller, body }) => createEvent(db, calendar, caller, body),
})
