// POST /api/admin/people/:id/disable: sessions end, keys stop, open reset links close; the row stays.
import { disablePerson, Disabled } from '#server/people/people.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('people:manage', 'Disable a person', {
  operationId: 'disablePerson',
  description: 'Their sessions end, keys stop and reset links close; the row stays. Not yourself, not the last owner.',
  params: IdParams,
  responses: ok(Disabled, 'Disabled (also when already disabled)', {
    403: 'Yourself',
    404: 'No such person',
    409: 'The last enabled owner',
  }),
  handler: ({ db, caller, params }) => disablePerson(db, caller, params.id),
})
