// POST /api/join: the public join form (JSON or form post), rate-limited per address, with a honeypot; alerts the leaders.
import { clientKey } from '#server/auth/address.ts'
import { tooMany } from '#server/errors.ts'
import { isFormPost, seeOther } from '#server/http/forms.ts'
import { JoinForm, Received, receiveJoinForm } from '#server/leads/join.ts'
import { created, defineRoute } from '#server/routes.ts'

export const POST = defineRoute('public', 'Send the join form', {
  operationId: 'join',
  description:
    'Creates a lead, copies it to the configured targets and, when mail is set up, mails the leaders of the unit asked about. ' +
    'At most 5 per address (an IPv6 client counts by its /64) in 10 minutes.',
  body: JoinForm,
  forms: true,
  responses: created(Received, 'Received; it never says more, whatever was sent', {
    303: 'Received (form post): on to the thanks page',
    422: 'No name, no way to reach the family, or a field that does not fit',
    429: 'Too many sign-ups from this address',
  }),
  async handler({ db, env, mail, body, address, request, joinLimiter, mirrorLead }) {
    const wait = joinLimiter.hit(clientKey(address) ?? 'unknown')
    if (wait) throw tooMany('Too many sign-ups from your address; please try again later', wait)
    const lead = await receiveJoinForm(db, body, address, mail && { publicBaseUrl: env.publicBaseUrl })
    if (lead?.copies) mirrorLead(lead.id)
    if (lead?.alerts) mail?.wake()
    return isFormPost(request) ? seeOther('/join/thanks/') : { received: true as const }
  },
})
