// DELETE /api/admin/files/:id: delete an uploaded file and its image sizes; its address answers 404 from then on.
import { deleteFile, FileIdParams, FileView } from '#server/files/files.ts'
import { FileStore } from '#server/files/store.ts'
import { defineRoute, ok } from '#server/routes.ts'

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
