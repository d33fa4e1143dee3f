// GET /files/:id/:name: an uploaded file (an image at its widest web size); members-only ones only to their unit.
import { serveFile } from '#server/files/serve.ts'
import { FileStore } from '#server/files/store.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'

export const GET = defineRoute('public', 'An uploaded file', {
  operationId: 'getFile',
  description:
    'Public files to anyone; members-only files to signed-in members and leaders of the file’s unit, 404 to everyone else (as for an unknown id), a session whose second factor is overdue included. ' +
    'Non-images download as attachments; the ETag is the content’s hash (304 to If-None-Match).',
  params: t.Object({
    id: t.String({ maxLength: 40, description: 'The file’s id' }),
    name: t.String({ maxLength: 200, description: 'Its name, as `url` gives it' }),
  }),
  responses: ok({ media: '*/*' }, 'The file, with its type', {
    304: 'Unchanged since the ETag sent',
    404: 'No such file, or not yours to open',
  }),
  handler: (ctx) => serveFile(ctx, new FileStore(ctx.env.filesDir), ctx.request, ctx.params.id, { name: ctx.params.name }),
})
