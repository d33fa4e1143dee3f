// GET /api/admin/leads/:id: one lead with its claim and its copies to outside targets.
import { LeadDetail, leadWithCopies } from '#server/leads/leads.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute({
  auth: 'leads:read',
  summary: 'One lead with its claim and mirror copies',
  params: IdParams,
  responses: { 200: { description: 'The lead', schema: LeadDetail }, 404: 'No such lead' },
  handler: ({ db, params }) => leadWithCopies(db, params.id),
})
