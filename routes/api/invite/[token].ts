// POST /api/invite/:token: accept an invite, creating the account with its roles (signed in at once).
import { sessionCookie } from '#server/auth/sessions.ts'
import { Accepted, Acceptance, acceptInvite } from '#server/people/invites.ts'
import { defineRoute } from '#server/routes.ts'
import { Line, t } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'public',
  summary: 'Accept an invite: set a password and create the account',
  params: t.Object({ token: Line(100, { description: 'The token from the invite link' }) }),
  body: Acceptance,
  responses: {
    201: { description: 'The account; the session cookie is in Set-Cookie', schema: Accepted },
    404: 'No such invite link',
    409: 'An account with this email exists already',
    410: 'The link has expired, was revoked or was already used',
  },
  async handler({ db, env, params, body, address, request, set }) {
    const { token, ...account } = await acceptInvite(db, params.token, body, { address, userAgent: request.headers.get('user-agent') })
    set.headers['set-cookie'] = sessionCookie(token, env.publicBaseUrl)
    return account
  },
})
