// POST /api/unsubscribe/:token: the one-click unsubscribe of RFC 8058 (a mail program posts
// `List-Unsubscribe=One-Click` here; the site's unsubscribe page posts nothing). No credential: the token is the proof.
import { Unsubscribed, unsubscribe } from '#server/messages/subscriptions.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { Line, t } from '#server/schemas.ts'

export const POST = defineRoute('public', 'Stop non-urgent mail to an address', {
  operationId: 'unsubscribe',
  description:
    "Stops leaders' non-urgent messages and the weekly digest to the address the link was made for; urgent messages still come. Any body is ignored. A second use changes nothing.",
  params: t.Object({ token: Line(100, { description: 'The token from the mail' }) }),
  responses: ok(Unsubscribed, 'Unsubscribed (or already so)', { 404: 'No such unsubscribe link' }),
  handler: ({ db, params }) => unsubscribe(db, params.token),
})
