// GET, PUT /api/admin/family/mail: whether each address of your household gets leaders' messages and the digest.
import { FamilyMail, familyMail, FamilyMailChange, setFamilyMail } from '#server/messages/subscriptions.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', "Your household's mail", {
  operationId: 'getFamilyMailPreferences',
  description: "Your address and your household's, each with whether it gets leaders' messages and the weekly digest.",
  person: true,
  responses: ok(FamilyMail, 'Each address and whether it is subscribed'),
  handler: ({ db, caller }) => familyMail(db, caller),
})

export const PUT = defineRoute('account:self', "Change your household's mail", {
  operationId: 'setFamilyMailPreferences',
  description: 'Turns non-urgent mail to one of these addresses off, or back on after an unsubscribe link was used.',
  person: true,
  body: FamilyMailChange,
  responses: ok(FamilyMail, 'Changed (or already so)', { 404: 'Not an address of your household' }),
  handler: ({ db, caller, body }) => setFamilyMail(db, caller, body),
})
