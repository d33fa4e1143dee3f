// POST /api/admin/mirrors/retry: replays every owed copy to a target; a copy already ok is never sent again.
import { retryCopies, RetryOutcome, RetryTarget } from '#server/leads/mirrors.ts'
import { defineRoute } from '#server/routes.ts'

export const POST = defineRoute({
  auth: 'leads:read',
  summary: 'Replay failed copies to a target (spreadsheet; notification is not implemented: 422)',
  body: RetryTarget,
  responses: {
    200: { description: 'What was replayed (also when nothing was owed)', schema: RetryOutcome },
    422: 'The notification target is not implemented, or the target is unknown',
  },
  handler: ({ db, caller, body }) => retryCopies(db, caller, body),
})
