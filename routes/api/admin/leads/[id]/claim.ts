// POST /api/admin/leads/:id/claim: take an unclaimed lead; one conditional update, so one of two racers wins.
import { claimLead } from '#server/leads/commands.ts'
import { LeadAnswer } from '#server/leads/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('leads:read', 'Claim a lead', {
  operationId: 'claimLead',
  description: 'Of two leaders claiming at once, exactly one wins. Taking over a held lead means release, then claim.',
  person: true,
  params: IdParams,
  responses: ok(LeadAnswer, 'Yours now, with who and when', {
    404: 'No such lead',
    409: { description: 'Someone (maybe you) holds it already', codes: ['already_claimed', 'claimed_by_other'] },
  }),
  handler: ({ db, caller, params }) => claimLead(db, caller, params.id),
})
