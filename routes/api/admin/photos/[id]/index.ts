// GET/PATCH/DELETE /api/admin/photos/:id: one photo as its album shows it; review it or mark it public; delete it.
import { FileStore } from '#server/files/store.ts'
import { deletePhoto, photoById, reviewPhoto } from '#server/photos/commands.ts'
import { PhotoParams, PhotoReview, PhotoView } from '#server/photos/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('any', 'Get a photo', {
  operationId: 'getPhotoDetails',
  description:
    'As the event’s album shows it to the caller (tags for leaders of the event’s units); 404 when the album does not show it to them.',
  params: PhotoParams,
  responses: ok(PhotoView, 'The photo', { 404: 'No such photo, or not one the caller may see' }),
  handler: ({ db, caller, params }) => photoById(db, caller, params.id),
})

export const PATCH = defineRoute('calendar:write', 'Review a photo or mark it public', {
  operationId: 'reviewPhoto',
  publishes: true,
  description:
    'For leaders of the event’s units. `reviewed: true` shows it to the families of those units (unless a tagged scout lacks photo consent); `public: true` shows it to anyone, on the public site’s Photos page (/albums/) too, and marks it reviewed; `reviewed: false` takes both back.',
  params: PhotoParams,
  body: PhotoReview,
  responses: ok(PhotoView, 'The photo', {
    403: { description: 'A photo of an event of a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'No such photo',
    409: { description: 'A family asked for it to come down', codes: ['taken_down'] },
    422: { description: 'Public while a tagged scout has no photo consent', codes: ['scout_without_consent'] },
  }),
  handler: ({ db, caller, params, body }) => reviewPhoto(db, caller, params.id, body),
})

export const DELETE = defineRoute('calendar:write', 'Delete a photo', {
  operationId: 'deletePhoto',
  publishes: true,
  description: 'For leaders of the event’s units: the photo, its tags and its web sizes go; answers it as it was.',
  params: PhotoParams,
  responses: ok(PhotoView, 'The photo as it was', {
    403: { description: 'A photo of an event of a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'No such photo',
  }),
  handler: ({ db, env, caller, params }) => deletePhoto(db, new FileStore(env.filesDir), caller, params.id),
})
