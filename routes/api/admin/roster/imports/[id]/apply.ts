// POST /api/admin/roster/imports/:id/apply: write what a preview showed, in one transaction with one action-log entry.
import { ledUnits } from '#server/auth/led-units.ts'
import { applyPreview } from '#server/roster/import.ts'
import { ImportParams, ImportResult } from '#server/roster/import-schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('roster:write', 'Apply a roster import', {
  operationId: 'applyRosterImport',
  description:
    'Creates and updates the households and scouts of a preview, worked out again against the roster as it is now; bad rows are skipped whole. One transaction, one action-log entry.',
  person: true,
  params: ImportParams,
  responses: ok(ImportResult, 'What was written', {
    404: 'No such preview, or another person’s',
    409: { description: 'The preview was applied already', codes: ['import_applied'] },
    410: { description: 'The preview is more than an hour old', codes: ['import_expired'] },
  }),
  async handler({ db, caller, params }) {
    const { created, updated, skipped } = await applyPreview(
      db,
      { led: ledUnits(caller), actor: caller.actor, personId: caller.person!.id },
      params.id,
    )
    return { created, updated, skipped }
  },
})
