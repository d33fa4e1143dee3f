// POST /api/admin/people/:id/reset: a one-time password-reset link (shown once), valid 24 hours.
import { issueResetLink, ResetIssued } from '#server/people/resets.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'people:invite_admin',
  summary:
    'Issue a one-time reset link for someone whose roles you could grant (an owner needs people:manage); the old password works until it is used',
  params: IdParams,
  responses: {
    201: { description: 'The link, this once; earlier open links close', schema: ResetIssued },
    403: 'The person holds a role you could not grant (only a signed-in owner resets an owner), or is disabled',
    404: 'No such person',
  },
  handler: ({ db, env, caller, params }) => issueResetLink(db, caller, params.id, env.publicBaseUrl),
})
