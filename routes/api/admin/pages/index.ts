// GET/POST /api/admin/pages: every content page, drafts too; add one.
import { nextLink } from '#server/http/paging.ts'
import { createPage, listPages, NewPage, PageList, PageListQuery, PageView } from '#server/pages/pages.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('pages:write', 'List content pages', {
  operationId: 'listPages',
  description:
    'Every content page, published or draft, by title. To page, send `limit` (and then the `next_cursor` of the previous page as `cursor`, also in the `Link` header); without either, every page.',
  query: PageListQuery,
  responses: ok(PageList, 'Every content page, or one page of them', { 422: 'A cursor this list did not give' }),
  async handler({ db, query, request, set }) {
    const list = await listPages(db, query)
    Object.assign(set.headers, nextLink(request, ('next_cursor' in list ? list.next_cursor : null) ?? null))
    return list
  },
})

export const POST = defineRoute('pages:write', 'Add a content page', {
  operationId: 'createPage',
  description: 'A draft unless `published` is true; a published page is built into the public site at /pages/{slug}/.',
  body: NewPage,
  publishes: true,
  responses: created(PageView, 'The new page', {
    409: 'Another page has this slug',
    422: 'A bad slug, an empty title, or an unknown unit',
  }),
  handler: ({ db, caller, body }) => createPage(db, caller, body),
})
