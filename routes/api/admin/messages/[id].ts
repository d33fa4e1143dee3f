// GET /api/admin/messages/:id: one message with each delivery (queued, sent, failed with the reason, skipped with why).
import { messageById } from '#server/messages/messages.ts'
import { MessageDetail } from '#server/messages/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('messages:send', 'Read a message and its deliveries', {
  operationId: 'getMessage',
  params: IdParams,
  responses: ok(MessageDetail, 'The message and its deliveries', { 404: 'No such message, or one to units you do not lead' }),
  handler: ({ db, caller, params }) => messageById(db, caller, params.id),
})
