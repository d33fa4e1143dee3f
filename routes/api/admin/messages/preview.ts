// POST /api/admin/messages/preview: who a message would reach, without sending (the compose form's live count).
import { Preview, previewMessage, PreviewRequest } from '#server/messages/messages.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('messages:send', 'Preview who a message reaches', {
  operationId: 'previewMessage',
  description: 'The addresses it would go to, each once, and what it would skip and why. Nothing is sent or recorded.',
  body: PreviewRequest,
  responses: ok(Preview, 'Who would get it', {
    403: 'A unit, household or event you do not lead',
    422: 'No audience, or an unknown den, household or event',
  }),
  handler: ({ db, caller, body }) => previewMessage(db, caller, body),
})
