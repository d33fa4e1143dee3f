// GET/DELETE /api/admin/files/:id: one uploaded file as the list shows it; delete it and its image sizes.
import { deleteFile, FileIdParams, FileView, getFile } from '#server/files/files.ts'
import { FileStore } from '#server/files/store.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('pages:write', 'An uploaded file', {
  operationId: 'getFileInfo',
  params: FileIdParams,
  responses: ok(FileView, 'The file as the list shows it', { 404: 'No such file' }),
  handler: ({ db, params }) => getFile(db, params.id),
})

export const DELETE = defineRoute('pages:write', 'Delete a file', {
  operationId: 'deleteFile',
  description: 'Pages that show or link it lose the image or link at the next build.',
  params: FileIdParams,
  publishes: true,
  responses: ok(FileView, 'The file as it was before it was deleted', {
    403: { description: 'A file of a unit the caller does not lead', codes: ['unit_out_of_scope'] },
    404: 'No such file',
  }),
  handler: ({ db, env, caller, params }) => deleteFile(db, new FileStore(env.filesDir), caller, params.id),
})
