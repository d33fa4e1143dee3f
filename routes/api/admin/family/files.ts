// GET /api/admin/family/files: the forms and lists of the family's units, each with its event.
import { FamilyFiles, familyFiles } from '#server/files/family-files.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', "The family's forms and lists", {
  operationId: 'getFamilyFiles',
  description:
    'The files of the units of the caller’s households (and of the units they are a member of) that they may open, newest first: ' +
    'public ones and members-only ones, each with the event it belongs to. An event’s files are listed until a week after the event.',
  responses: ok(FamilyFiles, 'The files'),
  handler: ({ db, caller }) => familyFiles(db, caller),
})
