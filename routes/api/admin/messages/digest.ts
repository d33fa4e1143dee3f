// GET /api/admin/messages/digest: the next weekly digest as it would go out, household by household.
import { digestPreview, DigestPreview } from '#server/messages/digest.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('messages:send', 'Preview the weekly digest', {
  operationId: 'getDigest',
  description:
    "When the next digest goes (mail.digest_day, mail.digest_hour) and what each household would get: its units' events of the next 14 days and the live announcements. Households with nothing coming, or no subscribed address, get none. A leader sees their units' households.",
  responses: ok(DigestPreview, 'The next digest'),
  handler: ({ db, caller }) => digestPreview(db, caller),
})
