// POST /api/admin/roster/imports: read a roster CSV and preview what importing it would do; nothing is written yet.
import { ledUnits } from '#server/auth/led-units.ts'
import { previewImport } from '#server/roster/import.ts'
import { IMPORT_MAX_BYTES, ImportPreview, ImportRequest } from '#server/roster/import-schemas.ts'
import { created, defineRoute } from '#server/routes.ts'

export const POST = defineRoute('roster:write', 'Preview a roster import', {
  operationId: 'previewRosterImport',
  description:
    'Reads households and scouts from a CSV file (columns matched by header, the BSA Member Roster export as it comes) and says what applying it would create or update, which rows are bad and why, and which columns are not kept. Nothing is written; the preview can be applied for an hour, by the person who made it.',
  person: true,
  maxBody: IMPORT_MAX_BYTES + 64 * 1024,
  body: ImportRequest,
  responses: created(ImportPreview, 'What applying the file would do', {
    403: { description: 'The unit (given, or named by the file title) is one the caller does not lead', codes: ['unit_out_of_scope'] },
    422: {
      description: 'Not a CSV file, no header row naming a scout’s first name, too many rows, or an unknown unit',
      codes: ['not_csv', 'no_header', 'too_many_rows'],
    },
  }),
  handler: ({ db, caller, body }) =>
    previewImport(db, { led: ledUnits(caller), actor: caller.actor, personId: caller.person!.id }, body.csv, body.unit),
})
