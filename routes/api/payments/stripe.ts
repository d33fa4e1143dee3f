// POST /api/payments/stripe: Stripe's webhook. The body is read here, not by the route machinery, because its signature
// is checked over the exact bytes Stripe sent.
import { readText } from '#server/http/body.ts'
import { receiveStripeEvent } from '#server/money/online.ts'
import { WebhookAnswer } from '#server/money/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

/** Stripe's events are a few kilobytes; anything near this is not one. */
const MAX_EVENT_BYTES = 256 * 1024

export const POST = defineRoute('public', "Receive Stripe's webhook", {
  operationId: 'receiveStripeWebhook',
  description:
    "Stripe posts its events here (point a webhook for `checkout.session.completed` at this address). The body is Stripe's event JSON, checked against `STRIPE_WEBHOOK_SECRET` with the `Stripe-Signature` header. A paid checkout becomes a payment entry for the household whose payment reference it carries as `client_reference_id`, once however often Stripe retries; one naming no household is kept as unmatched for the treasurer. Other events are acknowledged and ignored.",
  responses: ok(WebhookAnswer, 'Received (and recorded when it was a paid checkout not seen before)', {
    400: { description: 'The signature does not check out (logged)', codes: ['bad_signature'] },
    503: { description: 'Online payments are not set up (no STRIPE_WEBHOOK_SECRET)', codes: ['payments_not_configured'] },
  }),
  async handler({ db, env, request }) {
    const payload = await readText(request, MAX_EVENT_BYTES)
    return receiveStripeEvent(db, env.stripeWebhookSecret, payload, request.headers.get('stripe-signature'))
  },
})
