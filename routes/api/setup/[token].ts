// POST /api/setup/:token: create the first owner with the one-time link printed on first start.
import { LinkToken } from '#server/people/one-time-links.ts'
import { completeSetup, FirstOwner, OwnerCreated } from '#server/people/setup.ts'
import { created, defineRoute } from '#server/routes.ts'

export const POST = defineRoute('public', 'Create the first owner', {
  operationId: 'setUpOwner',
  description: 'With the one-time link the service prints on a start with no owner; you are signed in at once.',
  params: LinkToken,
  body: FirstOwner,
  responses: created(OwnerCreated, 'The first owner; the session cookie is in Set-Cookie', {
    404: 'No such setup link',
    410: 'The link was already used, or an owner exists',
  }),
  async handler({ db, params, body, client, startSession }) {
    const { token, email, personId } = await completeSetup(db, params.token, body, client)
    await startSession(token, personId)
    return { email }
  },
})
