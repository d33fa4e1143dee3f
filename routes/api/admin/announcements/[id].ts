// DELETE /api/admin/announcements/:id: revoke; the row is kept with revoked_at set.
import { AnnouncementView, revokeAnnouncement } from '#server/announcements/announcements.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams, t } from '#server/schemas.ts'

const Revoked = t.Object({ announcement: AnnouncementView }, { additionalProperties: false })

export const DELETE = defineRoute('announcements:write', 'Revoke an announcement', {
  description: 'The row stays, with revoked_at set.',
  params: IdParams,
  publishes: true,
  responses: ok(Revoked, 'Revoked', { 404: 'No such announcement', 409: 'Already revoked' }),
  handler: ({ db, caller, params }) => revokeAnnouncement(db, caller, params.id),
})
