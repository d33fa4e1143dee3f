// PUT /api/admin/roster/households/:id/people: the full list of accounts linked to a household.
import { linkPeople } from '#server/roster/commands.ts'
import { HouseholdView } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams, t } from '#server/schemas.ts'

export const PUT = defineRoute({
  auth: 'people:invite_leader',
  summary: 'Replace the accounts linked to a household in a unit you lead (unknown person 422)',
  params: IdParams,
  body: t.Object(
    {
      person_ids: t.Array(t.Integer({ minimum: 1 }), {
        maxItems: 20,
        uniqueItems: true,
        description: 'Every account to link; the rest are unlinked',
      }),
    },
    { additionalProperties: false, examples: [{ person_ids: [14] }] },
  ),
  responses: {
    200: { description: 'The household with its accounts', schema: HouseholdView },
    403: "The household's scouts are in units you do not lead",
    404: 'No such household',
    422: 'An unknown person id',
  },
  handler: ({ db, caller, params, body }) => linkPeople(db, caller, params.id, body.person_ids),
})
