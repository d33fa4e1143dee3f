// GET /api/push/key: the site's VAPID public key, which a browser subscribes with (applicationServerKey).
import { PushKey, vapidKeys } from '#server/push/subscriptions.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'The key browsers subscribe to notifications with', {
  operationId: 'getPushKey',
  description: 'The VAPID public key (RFC 8292), made once on first start and kept in the database (and its backups).',
  responses: ok(PushKey, 'The public key, base64url'),
  handler: async ({ db }) => ({ public_key: (await vapidKeys(db)).publicKey }),
})
