// GET and POST /api/admin/money/entries: the ledger's entries newest first, and a new entry for a scout or a household.
import { nextLink } from '#server/http/paging.ts'
import { addEntry } from '#server/money/commands.ts'
import { listEntries } from '#server/money/queries.ts'
import { EntryAnswer, EntryPage, EntryQuery, NewEntry } from '#server/money/schemas.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('money:write', 'List money entries', {
  operationId: 'listMoneyEntries',
  description:
    "Newest first, of the households with a scout in a unit the caller leads (admins and owners: every household). Filter by `scout_id` or `household_id` (a household's entries include its scouts'), `event_uid` and `unit`; page with `limit` and `cursor`.",
  query: EntryQuery,
  responses: ok(EntryPage, 'One page of entries', {
    403: { description: 'A unit the caller does not lead', codes: ['unit_out_of_scope'] },
    422: 'Both scout_id and household_id, or a cursor not for these filters',
  }),
  async handler({ db, caller, query, request, set }) {
    const page = await listEntries(db, caller, query)
    Object.assign(set.headers, nextLink(request, page.next_cursor))
    return page
  },
})

export const POST = defineRoute('money:write', 'Write a money entry', {
  operationId: 'createMoneyEntry',
  description:
    'A charge, payment, credit or refund for a scout (`scout_id`) or a whole family (`household_id`), in cents. Entries are never changed or deleted: a mistake is undone with a reversal. A payment that covers a scout’s dues ticks the roster’s dues check.',
  body: NewEntry,
  responses: created(EntryAnswer, 'The entry as written', {
    403: { description: 'The scout or household is outside the units the caller leads', codes: ['unit_out_of_scope'] },
    422: 'No such scout, household or event, or a method on a charge or credit',
  }),
  handler: ({ db, caller, body }) => addEntry(db, caller, body),
})
