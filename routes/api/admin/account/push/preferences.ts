// PUT /api/admin/account/push/preferences: mail, push or both, per kind of news.
import { PushPreferences, PushView, setPushPreferences } from '#server/push/subscriptions.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const PUT = defineRoute('account:self', 'Choose mail, push or both per kind', {
  operationId: 'setMyPushPreferences',
  description:
    'For each kind you name: `mail`, `push` or `both` (both at first). With `push` alone you still get the mail while ' +
    'none of your devices takes notifications.',
  person: true,
  accountPage: true,
  body: PushPreferences,
  responses: ok(PushView, 'Changed (or already so)'),
  handler: ({ db, caller, body }) => setPushPreferences(db, caller, body),
})
