// POST /api/setup/:token: create the first owner with the one-time link printed on first start.
import { sessionCookie } from '#server/auth/sessions.ts'
import { completeSetup, FirstOwner, OwnerCreated } from '#server/people/setup.ts'
import { defineRoute } from '#server/routes.ts'
import { Line, t } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'public',
  summary: 'Create the first owner with the setup link',
  params: t.Object({ token: Line(100, { description: 'The token from the link printed on first start' }) }),
  body: FirstOwner,
  responses: {
    201: { description: 'The first owner; the session cookie is in Set-Cookie', schema: OwnerCreated },
    404: 'No such setup link',
    410: 'The link was already used, or an owner exists',
  },
  async handler({ db, env, params, body, address, request, set }) {
    const { token, email } = await completeSetup(db, params.token, body, { address, userAgent: request.headers.get('user-agent') })
    set.headers['set-cookie'] = sessionCookie(token, env.publicBaseUrl)
    return { email }
  },
})
