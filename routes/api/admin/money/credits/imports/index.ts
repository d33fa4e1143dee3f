// POST /api/admin/money/credits/imports: read a fundraiser sheet and preview the credits it would write; nothing yet.
import { previewCredits } from '#server/money/credits-import.ts'
import { CREDITS_MAX_BYTES, CreditsPreview, CreditsRequest } from '#server/money/schemas.ts'
import { created, defineRoute } from '#server/routes.ts'

export const POST = defineRoute('money:write', 'Preview fundraiser credits from a file', {
  operationId: 'previewCreditsImport',
  description:
    'Reads a CSV of fundraiser sales (popcorn, wreaths): each line names a scout by member id or name, an amount and a memo. Says which scout each line credits and which lines cannot be credited and why; a credit the ledger already holds (same scout, amount and memo) is not credited again. Nothing is written; the preview can be applied for an hour, by the person who made it.',
  maxBody: CREDITS_MAX_BYTES + 64 * 1024,
  body: CreditsRequest,
  responses: created(CreditsPreview, 'What applying the file would credit', {
    403: { description: 'A unit the caller does not lead', codes: ['unit_out_of_scope'] },
    422: {
      description: 'Not a CSV file, no header naming the scout and the amount, or too many lines',
      codes: ['not_csv', 'no_header', 'too_many_rows'],
    },
  }),
  handler: ({ db, caller, body }) => previewCredits(db, caller, body.csv, body.unit),
})
