// GET/DELETE /api/admin/announcements/:id: one announcement with its state; revoke it (the row is kept with revoked_at set).
import { announcementById, AnnouncementView, revokeAnnouncement } from '#server/announcements/announcements.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('announcements:write', 'Get an announcement', {
  operationId: 'getAnnouncement',
  description: 'With its computed state, as the list shows it.',
  params: IdParams,
  responses: ok(AnnouncementView, 'The announcement', { 404: 'No such announcement' }),
  handler: ({ db, params }) => announcementById(db, params.id),
})

export const DELETE = defineRoute('announcements:write', 'Revoke an announcement', {
  operationId: 'revokeAnnouncement',
  description: 'The row stays, with revoked_at set.',
  params: IdParams,
  publishes: true,
  responses: ok(AnnouncementView, 'The announcement, now revoked', { 404: 'No such announcement', 409: 'Already revoked' }),
  handler: ({ db, caller, params }) => revokeAnnouncement(db, caller, params.id),
})
