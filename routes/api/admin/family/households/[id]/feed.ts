// POST /api/admin/family/households/:id/feed: a new private calendar link for one of your households (the old one stops).
import { NewFeed, newFeed } from '#server/calendar/household-feed.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('account:self', 'Make a private calendar link for your household', {
  operationId: 'newHouseholdFeed',
  description:
    "A calendar feed of every event of your household's units, members-only ones too, to subscribe to in a calendar app. " +
    'The link is shown only in this answer (the site keeps a hash of it); making a new one stops the old one.',
  person: true,
  params: IdParams,
  responses: ok(NewFeed, 'The new link', { 404: 'Not a household your account is linked to' }),
  handler: ({ db, env, caller, params }) => newFeed(db, caller, params.id, env.publicBaseUrl),
})
