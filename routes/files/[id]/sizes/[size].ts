// GET /files/:id/sizes/:size: one web size of an uploaded image (`w960.webp`, `w960.jpg`), for srcset.
import { serveFile } from '#server/files/serve.ts'
import { FileStore } from '#server/files/store.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'

export const GET = defineRoute('public', 'One web size of an uploaded image', {
  operationId: 'getFileSize',
  description: 'The sizes are listed in the file’s `sizes`; who may open them is as for the file itself.',
  params: t.Object({
    id: t.String({ maxLength: 40, description: 'The file’s id' }),
    size: t.String({ maxLength: 40, description: 'A size’s name, as `sizes` gives it', examples: ['w960.webp'] }),
  }),
  responses: ok({ media: 'image/*' }, 'The image', {
    304: 'Unchanged since the ETag sent',
    404: 'No such file or size, or not yours to open',
  }),
  handler: (ctx) => serveFile(ctx, new FileStore(ctx.env.filesDir), ctx.request, ctx.params.id, { size: ctx.params.size }),
})
