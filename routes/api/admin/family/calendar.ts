// GET /api/admin/family/calendar: the members-only events ahead for your households, and whether each has a private feed.
import { FamilyCalendar, familyCalendar } from '#server/calendar/household-feed.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', 'Your members-only events and private feeds', {
  operationId: 'getFamilyCalendar',
  description:
    "The upcoming members-only events of your households' units (the public calendar leaves them out), and for each of your households whether it has a private calendar link.",
  responses: ok(FamilyCalendar, 'Your households and the members-only events ahead'),
  handler: ({ db, caller }) => familyCalendar(db, caller),
})
