// POST /api/admin/roster/welcome: mails every active household address with no account a welcome and a sign-in link.
import { defineRoute, accepted } from '#server/routes.ts'
import { WelcomeQueued, WelcomeRequest, welcomeRoster } from '#server/roster/welcome.ts'

export const POST = defineRoute('roster:write', 'Welcome the roster by mail', {
  operationId: 'welcomeRoster',
  description:
    'Needs messages:send as well. One mail to each active household address (of `unit`, else of every unit you lead; all ' +
    'units for admins and owners) that has no account yet: what the site is, the unit and its leaders, and a one-use ' +
    'sign-in link valid 7 days whose first use makes a family account linked to the household. Goes through the outbox; a ' +
    'household welcomed in the last 7 days is skipped, so asking twice mails nobody twice.',
  body: WelcomeRequest,
  responses: accepted(WelcomeQueued, 'The welcomes are queued', {
    403: { description: 'No messages:send, or a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'No such unit',
    409: 'Mail is not set up on this site',
  }),
  handler: ({ db, env, mail, caller, body }) => welcomeRoster(db, caller, body, env.publicBaseUrl, mail),
})
