// PUT /api/admin/calendar/:uid/rsvps/:household_id/payment: a leader records what a household has paid for an event
// with a cost (cash, a check, an online payment made elsewhere); no card data is handled here.
import { recordPayment } from '#server/calendar/rsvp.ts'
import { Payment, PaymentView } from '#server/calendar/signup.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { Line, t } from '#server/schemas.ts'

const Params = t.Object({
  uid: Line(300, { minLength: 1, description: 'The event uid', examples: ['9b2c1e4a-2f0e-4c55-9f0b-3d1f6c7a8e21@scouting-units-site'] }),
  household_id: t.Integer({ minimum: 1, description: 'The household', examples: [12] }),
})

export const PUT = defineRoute('calendar:write', 'Record a payment', {
  operationId: 'recordPayment',
  description:
    'What the household has paid in all for the event (not an addition), how, and a note; logged. The answer shows what it owes ' +
    '(cost × scouts confirmed), has paid and the balance. The money ledger follows the total with one payment entry for the ' +
    'household (a new total reverses the earlier entry; 0 only reverses it).',
  params: Params,
  body: Payment,
  responses: ok(PaymentView, 'The household’s money for the event', {
    403: { description: 'An event for a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'The event does not ask for replies, or the household has not replied',
    409: 'The event has no cost',
  }),
  handler: ({ db, caller, params, body }) => recordPayment(db, caller, params.uid, params.household_id, body),
})
