// DELETE /api/admin/announcements/:id: revoke; the row is kept with revoked_at set.
import { AnnouncementView, revokeAnnouncement } from '#server/announcements/announcements.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams, t } from '#server/schemas.ts'

export const DELETE = defineRoute({
  auth: 'announcements:write',
  summary: 'Revoke an announcement (409 if already revoked)',
  params: IdParams,
  publishes: true,
  responses: {
    200: { description: 'Revoked', schema: t.Object({ announcement: AnnouncementView }, { additionalProperties: false }) },
    404: 'No such announcement',
    409: 'The announcement is already revoked',
  },
  handler: ({ db, caller, params }) => revokeAnnouncement(db, caller, params.id),
})
