// GET/PUT/DELETE /api/admin/calendar/:uid: one event; replace or delete an event the site created; others' events are read-only (403).
import { EventBody, EventView, Uid } from '#server/calendar/schemas.ts'
import { deleteEvent, eventByUid, replaceEvent } from '#server/calendar/service.ts'
import { signupMail } from '#server/calendar/signup-mail.ts'
import { defineRoute, ok } from '#server/routes.ts'

const refusals = {
  403: {
    description: 'The site did not create this event, or it is for a unit you do not lead; nothing is sent to the store',
    codes: ['unit_out_of_scope'],
  },
  409: 'Changed in another calendar app meanwhile',
  502: 'The calendar store refused or did not answer',
}

export const GET = defineRoute('calendar:write', 'Get an event', {
  operationId: 'getEvent',
  description:
    'As the list shows it, read from the store now; a repeating event by its first day, with its rule (what a PUT sends). ' +
    'When the CalDAV store does not answer, as the last good copy has it.',
  params: Uid,
  responses: ok(EventView, 'The event', { 404: 'The store holds no event with this uid' }),
  handler: ({ db, calendar, params }) => eventByUid(db, calendar, params.uid),
})

export const PUT = defineRoute('calendar:write', 'Replace an event', {
  operationId: 'putEvent',
  params: Uid,
  body: EventBody,
  publishes: true,
  responses: ok(EventView, 'The event as replaced', {
    ...refusals,
    404: 'The store no longer holds the event',
    422: { description: 'A field does not fit, or a time the clocks skip in the site time zone', codes: ['nonexistent_local_time'] },
  }),
  description:
    'The full body, as for creating one. Only events the site created. More places move the waitlist up; a changed ' +
    'permission slip asks the families who signed the old one to sign again (both mailed when mail is set up).',
  async handler({ db, env, calendar, caller, params, body, mail }) {
    const replaced = await replaceEvent(db, calendar, caller, params.uid, body, signupMail(mail, env))
    mail?.wake()
    return replaced
  },
})

export const DELETE = defineRoute('calendar:write', 'Delete an event', {
  operationId: 'deleteEvent',
  description:
    'A real deletion from the store. Only events the site created. Before the event starts, deleting it cancels its ' +
    'sign-ups: each household that said yes is told (by mail, and by notification where chosen) and the trip fees ' +
    'charged for it are reversed.',
  params: Uid,
  publishes: true,
  responses: ok(EventView, 'The event as it was before the deletion', { ...refusals, 404: 'No such event (a second delete)' }),
  async handler({ db, env, calendar, caller, params, mail }) {
    const deleted = await deleteEvent(db, calendar, caller, params.uid, signupMail(mail, env))
    mail?.wake()
    return deleted
  },
})
