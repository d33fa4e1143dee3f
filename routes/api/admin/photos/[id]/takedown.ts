// POST /api/admin/photos/:id/takedown: a family of a scout in the photo asks for it to come down; it is hidden at once.
import { takeDown } from '#server/photos/commands.ts'
import { PhotoParams, Takedown } from '#server/photos/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'

const TakenDown = t.Object(
  { id: t.Integer(), taken_down: t.Literal(true) },
  { $id: 'PhotoTakenDown', additionalProperties: false, examples: [{ id: 12, taken_down: true }] },
)

export const POST = defineRoute('account:self', 'Ask for a photo to come down', {
  operationId: 'takeDownPhoto',
  publishes: true,
  description:
    'For a family account of a household whose scout is tagged in the photo. It is hidden from everyone but leaders at once, for good, and the leaders of the event’s units are told by mail (the mail carries no photo). Asking again changes nothing.',
  params: PhotoParams,
  body: Takedown,
  person: true,
  responses: ok(TakenDown, 'Taken down', {
    403: { description: 'A photo the caller may see, but none of their scouts is tagged in it', codes: ['not_your_scout'] },
    404: 'No such photo (or one the caller may not see)',
  }),
  async handler({ db, env, mail, caller, params, body }) {
    const done = await takeDown(db, caller, params.id, body?.note ?? null, env.publicBaseUrl)
    mail?.wake()
    return done
  },
})
