// GET/POST /api/admin/announcements: every announcement with its computed state; create one within the caps.
import {
  AnnouncementList,
  AnnouncementView,
  createAnnouncement,
  listAnnouncements,
  LiveCapFull,
  NewAnnouncement,
} from '#server/announcements/announcements.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'announcements:write',
  summary: 'All announcements with their computed state, newest first',
  responses: { 200: { description: 'Every announcement', schema: AnnouncementList } },
  handler: ({ db }) => listAnnouncements(db),
})

export const POST = defineRoute({
  auth: 'announcements:write',
  summary: 'Create an announcement (422 bad window or too long; 409 when the live cap is full)',
  body: NewAnnouncement,
  publishes: true,
  responses: {
    201: { description: 'The new announcement with its state (live, or scheduled when it starts later)', schema: AnnouncementView },
    409: { description: 'It would be live now, but the live cap is full: the live ones come along', schema: LiveCapFull },
    422: 'ends_at missing or not after starts_at or in the past, the message empty or over the character cap',
  },
  handler: ({ db, caller, body }) => createAnnouncement(db, caller, body),
})
