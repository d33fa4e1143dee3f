// PUT/DELETE /api/admin/calendar/:uid: replace or delete an event the site created; others' events are read-only (403).
import { deleteEvent, EventBody, EventDeleted, EventView, replaceEvent, Uid } from '#server/calendar/service.ts'
import { defineRoute } from '#server/routes.ts'

export const PUT = defineRoute({
  auth: 'calendar:write',
  summary: "Replace an event the site created (full body); another client's event is 403; a change made meanwhile is 409",
  params: Uid,
  body: EventBody,
  publishes: true,
  responses: {
    200: { description: 'The event as replaced', schema: EventView },
    403: 'The site did not create this event (nothing is sent to the store)',
    404: 'The store no longer holds the event',
    409: 'The event was changed in another calendar app meanwhile, or no store is configured',
    502: 'The calendar store refused or did not answer',
  },
  handler: ({ db, calendar, caller, params, body }) => replaceEvent(db, calendar, caller, params.uid, body),
})

export const DELETE = defineRoute({
  auth: 'calendar:write',
  summary: 'Delete an event the site created (a real deletion; again 404)',
  params: Uid,
  publishes: true,
  responses: {
    200: { description: 'Deleted from the store', schema: EventDeleted },
    403: 'The site did not create this event (nothing is sent to the store)',
    404: 'No such event (a second delete)',
    409: 'The event was changed in another calendar app meanwhile, or no store is configured',
    502: 'The calendar store refused or did not answer',
  },
  handler: ({ db, calendar, caller, params }) => deleteEvent(db, calendar, caller, params.uid),
})
