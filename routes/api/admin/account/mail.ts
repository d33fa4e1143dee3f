// GET, PUT /api/admin/account/mail: what the site mails you on its own (a leader's alerts about new leads).
import { MailPreferences, mailPreferences, MailPreferencesView, setMailPreferences } from '#server/account/mail-preferences.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', 'Your mail preferences', {
  operationId: 'getMyMailPreferences',
  person: true,
  accountPage: true,
  responses: ok(MailPreferencesView, 'What the site mails you on its own'),
  handler: ({ db, caller }) => mailPreferences(db, caller),
})

export const PUT = defineRoute('account:self', 'Change your mail preferences', {
  operationId: 'setMyMailPreferences',
  description: 'Turns the mail about each new lead of the units you lead on or off (on for every leader at first).',
  person: true,
  accountPage: true,
  body: MailPreferences,
  responses: ok(MailPreferencesView, 'Changed (or already so)'),
  handler: ({ db, caller, body }) => setMailPreferences(db, caller, body),
})
