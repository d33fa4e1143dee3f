// GET /api/admin/leads/:id: one lead with its claim and its copies to outside targets.
import { leadWithCopies } from '#server/leads/queries.ts'
import { LeadDetail } from '#server/leads/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('leads:read', 'Get a lead', {
  operationId: 'getLead',
  description: 'With its claim and its copies to outside targets.',
  params: IdParams,
  responses: ok(LeadDetail, 'The lead', { 404: 'No such lead' }),
  handler: ({ db, params }) => leadWithCopies(db, params.id),
})
