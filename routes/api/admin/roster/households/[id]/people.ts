// PUT /api/admin/roster/households/:id/people: the full list of accounts linked to a household.
import { linkPeople } from '#server/roster/commands.ts'
import { RosterHousehold, PersonIds } from '#server/roster/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const PUT = defineRoute('people:invite_leader', 'Link accounts to a household', {
  operationId: 'setHouseholdAccounts',
  description: 'The full list: accounts left out are unlinked. A leader links households in units they lead (or with no scouts yet).',
  params: IdParams,
  body: PersonIds,
  responses: ok(RosterHousehold, 'The household with its accounts', {
    403: "The household's scouts are in units you do not lead",
    404: 'No such household',
    422: 'An unknown person id',
  }),
  handler: ({ db, caller, params, body }) => linkPeople(db, caller, params.id, body.person_ids),
})
