// GET/POST /api/admin/announcements: every announcement with its computed state; create one within the caps.
import {
  AnnouncementList,
  AnnouncementView,
  createAnnouncement,
  listAnnouncements,
  LiveCapFull,
  NewAnnouncement,
} from '#server/announcements/announcements.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('announcements:write', 'List announcements', {
  operationId: 'listAnnouncements',
  description: 'Every announcement, newest first, with its computed state.',
  responses: ok(AnnouncementList, 'Every announcement'),
  handler: ({ db }) => listAnnouncements(db),
})

export const POST = defineRoute('announcements:write', 'Create an announcement', {
  operationId: 'createAnnouncement',
  description: 'Live now unless starts_at is later. Refused when the window is bad, the message too long, or the live cap is full.',
  body: NewAnnouncement,
  publishes: true,
  responses: created(AnnouncementView, 'The new announcement with its state', {
    409: { description: 'It would be live now, but the live cap is full: the live ones come along', schema: LiveCapFull },
    422: 'ends_at missing, not after starts_at or in the past; the message empty or over the cap',
  }),
  handler: ({ db, caller, body }) => createAnnouncement(db, caller, body),
})
