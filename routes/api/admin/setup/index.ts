// GET /api/admin/setup: the owner's getting-started steps, each done (from the data) or not, dismissed or not.
import { defineRoute, ok } from '#server/routes.ts'
import { SetupList, setupSteps } from '#server/setup/steps.ts'

export const GET = defineRoute('people:manage', 'Getting-started steps', {
  operationId: 'getSetup',
  description:
    'Name and number each unit, meeting details, mail, the first event, other leaders, a second factor, the first announcement and ' +
    'the first content page. A step is done when the data shows it; the dashboard lists the steps until each is done or dismissed.',
  responses: ok(SetupList, 'Every step, in order'),
  handler: ({ db, env, caller }) => setupSteps({ db, env, caller }),
})
