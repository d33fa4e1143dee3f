// GET /api/admin/family/photos: the albums of the family's units' events, with the photos they may see.
import { familyAlbums } from '#server/photos/queries.ts'
import { FamilyAlbums } from '#server/photos/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', "The family's photo albums", {
  operationId: 'getFamilyAlbums',
  description:
    'Every event of the units of the caller’s households (or that they lead) with a photo they may see, newest first: reviewed photos without a scout lacking consent, and for leaders every photo of their units. ' +
    'Besides, the events of the last 30 days up to today that the caller’s households were on (a confirmed yes, or a scout recorded present), with `can_upload` true and no photos yet, so a family can add the first one.',
  responses: ok(FamilyAlbums, 'The albums'),
  handler: ({ db, caller }) => familyAlbums(db, caller),
})
