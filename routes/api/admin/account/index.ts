// GET/PATCH /api/admin/account: your own public details; today whether your email shows on the public unit page.
import { AccountChange, AccountView, accountView, setShowEmail } from '#server/account/public-email.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', 'Your public details', {
  operationId: 'getAccount',
  person: true,
  accountPage: true,
  responses: ok(AccountView, 'Your email and whether the public unit page shows it'),
  handler: ({ db, caller }) => accountView(db, caller),
})

export const PATCH = defineRoute('account:self', 'Change your public details', {
  operationId: 'updateAccount',
  description: 'Shows or hides your email beside your name on the public page of each unit you lead; the site is rebuilt.',
  person: true,
  accountPage: true,
  body: AccountChange,
  responses: ok(AccountView, 'Changed (or already so)'),
  async handler({ db, caller, body, publicDataChanged }) {
    if (await setShowEmail(db, caller, body.show_email)) publicDataChanged()
    return accountView(db, caller)
  },
})
