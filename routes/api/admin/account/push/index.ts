// GET, POST, DELETE /api/admin/account/push: your devices that take notifications, adding one, and ending one.
import { EndpointBody, NewPushSubscription, pushView, PushView, subscribe, unsubscribe } from '#server/push/subscriptions.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', 'Your devices that take notifications', {
  operationId: 'getMyPush',
  person: true,
  accountPage: true,
  responses: ok(PushView, 'Your devices and what you want by push'),
  handler: ({ db, caller }) => pushView(db, caller),
})

export const POST = defineRoute('account:self', 'Turn notifications on for a device', {
  operationId: 'subscribePush',
  description:
    "The browser's PushSubscription (`subscription.toJSON()`, made with the key from `GET /api/push/key`). The endpoint must be " +
    'https and a public address (plain http only to an address inside OUTBOUND_ALLOW); the same endpoint again is kept once, ' +
    'with its new keys, for whoever sent it last.',
  person: true,
  accountPage: true,
  body: NewPushSubscription,
  responses: created(PushView, 'Kept: your devices now', {
    422: 'The endpoint is not https or points at this machine or a private network, or a key is not of the right length',
  }),
  handler: ({ db, caller, body, outbound, client }) => subscribe(db, caller, body, outbound, client.userAgent),
})

export const DELETE = defineRoute('account:self', 'Turn notifications off for a device', {
  operationId: 'unsubscribePush',
  description: 'Pushes still waiting for the device are dropped (their deliveries say so).',
  person: true,
  accountPage: true,
  body: EndpointBody,
  responses: ok(PushView, 'Ended: your devices now', { 404: 'You have no device with that endpoint' }),
  handler: ({ db, caller, body }) => unsubscribe(db, caller, body.endpoint),
})
