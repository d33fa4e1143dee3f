// POST /api/admin/leads/:id/release: the holder (or someone with people:manage) lets a lead go.
import { releaseLead } from '#server/leads/commands.ts'
import { LeadAnswer } from '#server/leads/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('leads:read', 'Release a lead', {
  operationId: 'releaseLead',
  description: 'The holder, or someone with people:manage.',
  person: true,
  params: IdParams,
  responses: ok(LeadAnswer, 'Unclaimed again', {
    403: 'Someone else holds the lead, and you lack people:manage',
    404: 'No such lead',
    409: 'Nobody holds the lead',
  }),
  handler: ({ db, caller, params }) => releaseLead(db, caller, params.id),
})
