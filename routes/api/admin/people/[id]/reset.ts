// POST /api/admin/people/:id/reset: a one-time password-reset link (shown once; mailed with send_email), valid 24 hours.
import { issueResetLink, ResetIssued, ResetRequest } from '#server/people/resets.ts'
import { created, defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('people:invite_admin', 'Issue a password-reset link', {
  operationId: 'createResetLink',
  description:
    'One-time, valid 24 hours, shown once; for someone whose roles you could grant (an owner needs people:manage). The old password works until it is used.',
  params: IdParams,
  body: ResetRequest,
  responses: created(ResetIssued, 'The link, this once; earlier open links close', {
    403: 'The person holds a role you could not grant, or is disabled',
    404: 'No such person',
    409: 'send_email while mail is not set up',
  }),
  handler: ({ db, env, mail, caller, params, body }) => issueResetLink(db, caller, params.id, body, env.publicBaseUrl, mail),
})
