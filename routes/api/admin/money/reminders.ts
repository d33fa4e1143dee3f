// POST /api/admin/money/reminders: mail every household of the unit that owes at least an amount its statement.
import { RemindersQueued, RemindersRequest, remindDebtors } from '#server/money/reminders.ts'
import { accepted, defineRoute } from '#server/routes.ts'

export const POST = defineRoute('money:write', 'Mail statements to families who owe', {
  operationId: 'mailStatements',
  description:
    "Each active household of the unit owing at least `min_balance_cents` (1 cent by default) is mailed its statement through the outbox: each scout's entries and balance this program year, the Pay links and `payments.instructions`. To the parents' addresses only (`email`, `second_email`). Needs `messages:send` as well.",
  body: RemindersRequest,
  responses: accepted(RemindersQueued, 'The statements are queued', {
    403: { description: 'No messages:send, or a unit the caller does not lead', codes: ['unit_out_of_scope'] },
    409: 'Mail is not set up (SMTP_URL)',
  }),
  handler: ({ db, caller, body, env, mail }) => remindDebtors(db, caller, body, env.publicBaseUrl, mail),
})
