// POST /api/admin/leads/:id/claim: take an unclaimed lead; one conditional update, so one of two racers wins.
import { claimLead, LeadAnswer } from '#server/leads/leads.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'leads:read',
  person: true,
  summary: 'Claim an unclaimed lead (409 when anyone holds it)',
  params: IdParams,
  responses: {
    200: { description: 'Yours now, with who and when', schema: LeadAnswer },
    404: 'No such lead',
    409: 'Someone (maybe you) holds the lead already: taking over means release, then claim',
  },
  handler: ({ db, caller, params }) => claimLead(db, caller, params.id),
})
