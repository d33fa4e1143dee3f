// POST /api/admin/mirrors/retry: replays every owed copy to a target; a copy already ok is never sent again.
import { retryCopies, RetryOutcome, RetryTarget } from '#server/leads/mirrors.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('leads:read', 'Replay failed copies', {
  operationId: 'retryMirrors',
  description: 'Replays every owed copy to the target; a copy already ok is never sent again.',
  body: RetryTarget,
  responses: ok(RetryOutcome, 'What was replayed (also when nothing was owed)', { 422: 'The notification target is not implemented' }),
  handler: ({ db, caller, body, outbound }) => retryCopies(db, outbound, caller, body),
})
