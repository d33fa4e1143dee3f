// POST /api/admin/money/credits/imports/:id/apply: write a previewed file's credits, in one transaction.
import { applyCredits } from '#server/money/credits-import.ts'
import { CreditsApplied, CreditsParams } from '#server/money/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('money:write', 'Apply previewed fundraiser credits', {
  operationId: 'applyCreditsImport',
  description:
    'Writes a credit entry for each good line of the preview, matched again against the roster and the ledger as they are now, with one action-log entry. A preview is applied once.',
  params: CreditsParams,
  responses: ok(CreditsApplied, 'What was credited', {
    404: 'No such preview, or another person’s',
    409: { description: 'Applied already', codes: ['import_applied'] },
    410: { description: 'More than an hour old', codes: ['import_expired'] },
  }),
  handler: ({ db, caller, params }) => applyCredits(db, caller, params.id),
})
