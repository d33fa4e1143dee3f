// POST /api/admin/setup/:step/dismiss: the owner skips a getting-started step; the dashboard stops showing it.
import { defineRoute, ok } from '#server/routes.ts'
import { dismissStep, SetupStepAnswer, StepParams } from '#server/setup/steps.ts'

export const POST = defineRoute('people:manage', 'Dismiss a getting-started step', {
  operationId: 'dismissSetupStep',
  description: 'For good; dismissing it again answers the same and logs nothing.',
  params: StepParams,
  responses: ok(SetupStepAnswer, 'The step, dismissed', { 404: 'No such step' }),
  handler: ({ db, env, caller, params }) => dismissStep(db, env, caller, params.step),
})
