// POST /api/admin/people/:id/disable: sessions end, keys stop, open reset links close; the row stays.
import { disablePerson, Disabled } from '#server/people/people.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'people:manage',
  summary: 'Disable a person (owner only; not yourself; not the last owner)',
  params: IdParams,
  responses: {
    200: { description: 'Disabled (also when already disabled)', schema: Disabled },
    403: 'Yourself, or you are not a signed-in owner',
    404: 'No such person',
    409: 'The last enabled owner',
  },
  handler: ({ db, caller, params }) => disablePerson(db, caller, params.id),
})
