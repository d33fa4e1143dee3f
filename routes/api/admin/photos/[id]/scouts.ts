// PUT /api/admin/photos/:id/scouts: the scouts in a photo, as the whole list; a change asks for a new review.
import { tagPhoto } from '#server/photos/commands.ts'
import { PhotoParams, PhotoTags, PhotoView } from '#server/photos/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const PUT = defineRoute('calendar:write', 'Tag the scouts in a photo', {
  operationId: 'tagPhoto',
  publishes: true,
  description:
    'For leaders of the event’s units. Replaces the tags; when they change, the photo waits for a new review (and is no longer public). A photo with a tagged scout who lacks photo consent is shown to leaders only.',
  params: PhotoParams,
  body: PhotoTags,
  responses: ok(PhotoView, 'The photo with its tags', {
    403: { description: 'A photo of an event of a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'No such photo',
    422: { description: 'A scout id no scout has', codes: ['unknown_scout'] },
  }),
  handler: ({ db, caller, params, body }) => tagPhoto(db, caller, params.id, body.scout_ids),
})
