// GET/POST /api/admin/announcements: every announcement with its computed state; create one within the caps.
import {
  AnnouncementList,
  AnnouncementListQuery,
  AnnouncementView,
  createAnnouncement,
  listAnnouncements,
  LiveCapFull,
  NewAnnouncement,
} from '#server/announcements/announcements.ts'
import { nextLink } from '#server/http/paging.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('announcements:write', 'List announcements', {
  operationId: 'listAnnouncements',
  description:
    'Every announcement, newest first, with its computed state. To page, send `limit` (and then the `next_cursor` of the previous page as `cursor`, also in the `Link` header); without either, every announcement.',
  query: AnnouncementListQuery,
  responses: ok(AnnouncementList, 'Every announcement, or one page of them', { 422: 'A cursor this list did not give' }),
  async handler({ db, query, request, set }) {
    const list = await listAnnouncements(db, query)
    Object.assign(set.headers, nextLink(request, 'next_cursor' in list ? list.next_cursor : null))
    return list
  },
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
