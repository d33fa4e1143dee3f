// POST /api/admin/messages/preview: who a message would reach, without sending (the compose form's live count).
import { previewMessage } from '#server/messages/messages.ts'
import { Preview, PreviewRequest } from '#server/messages/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('messages:send', 'Preview who a message reaches', {
  operationId: 'previewMessage',
  description: 'The addresses it would go to, each once, and what it would skip and why. Nothing is sent or recorded.',
  body: PreviewRequest,
  responses: ok(Preview, 'Who would get it', {
    403: {
      description: 'A unit, event or household you do not lead (a household with no scout in your units)',
      codes: ['audience_out_of_scope'],
    },
    422: 'No audience, or an unknown den, household or event',
  }),
  handler: ({ db, caller, body }) => previewMessage(db, caller, body),
})
