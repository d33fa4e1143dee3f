// GET/PUT /api/reply/:token: the reply link in a mail (/reply/<token>) lets a household without an account read and
// answer one event. No credential: the token is the proof, for that household and that event only.
import { clientKey } from '#server/auth/address.ts'
import { answerByLink, replyByLink, ReplyLinkView } from '#server/calendar/reply-link.ts'
import { RsvpBody, RsvpView } from '#server/calendar/rsvp-schemas.ts'
import { signupMail } from '#server/calendar/signup-mail.ts'
import { tooMany } from '#server/errors.ts'
import { defineRoute, ok } from '#server/routes.ts'
import type { Services } from '#server/services.ts'
import { Line, t } from '#server/schemas.ts'

const params = t.Object({ token: Line(400, { description: 'The token from the mail' }) })

const limit = ({ replyLimiter }: Services, address: string | null) => {
  const wait = replyLimiter.hit(clientKey(address) ?? 'unknown')
  if (wait) throw tooMany('Too many replies from your address; please try again later', wait)
}

const REFUSALS = {
  404: 'Not a reply link, or its household is no longer on the roster',
  410: 'Replies are closed: the event started, its sign-up closed, or it no longer asks for replies',
  429: 'Too many asks from this address (30 in 10 minutes)',
}

export const GET = defineRoute('public', 'Open a reply link', {
  operationId: 'getReplyByLink',
  description:
    "The event with its details, the household the link was made for with its scouts, and the household's reply so far (null before one). " +
    'Changes nothing: mail scanners open links.',
  params,
  responses: ok(ReplyLinkView, 'The event, the household and its reply', REFUSALS),
  handler(ctx) {
    limit(ctx, ctx.address)
    return replyByLink(ctx.db, ctx.params.token)
  },
})

export const PUT = defineRoute('public', 'Reply by a reply link', {
  operationId: 'replyByLink',
  description:
    'The same body and rules as a signed-in family’s reply (PUT /api/admin/calendar/{uid}/rsvps): places and the waitlist (and `split`), ' +
    'scouts of the household, the permission slip, slots. Recorded in the history as the household “via reply link”.',
  params,
  body: RsvpBody,
  responses: ok(RsvpView, 'The reply as kept', {
    ...REFUSALS,
    403: 'household_id names another household',
    409: 'A slot has no room left, or more scouts than places are left',
    422: 'A bad answer or count, scouts not of the household, a yes without the permission slip signed, an unknown slot, or a split that cannot mean anything',
  }),
  async handler(ctx) {
    limit(ctx, ctx.address)
    const reply = await answerByLink(ctx.db, ctx.params.token, ctx.body, { address: ctx.address, mail: signupMail(ctx.mail, ctx.env) })
    ctx.mail?.wake()
    return reply
  },
})
