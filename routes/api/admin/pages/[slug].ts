// GET/PATCH/DELETE /api/admin/pages/:slug: one content page; change it (its slug too); delete it.
import { changePage, deletePage, getPage, PageChange, PageView, SlugParams } from '#server/pages/pages.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('pages:write', 'A content page', {
  operationId: 'getPage',
  params: SlugParams,
  responses: ok(PageView, 'The page', { 404: 'No such page' }),
  handler: ({ db, params }) => getPage(db, params.slug),
})

export const PATCH = defineRoute('pages:write', 'Change a content page', {
  operationId: 'updatePage',
  description: 'Partial; a new slug moves the page to /pages/{new slug}/. 200 also when nothing changes.',
  params: SlugParams,
  body: PageChange,
  publishes: true,
  responses: ok(PageView, 'The page after the change', {
    404: 'No such page',
    409: 'Another page has the new slug',
    422: 'A bad slug, an empty title, or an unknown unit',
  }),
  handler: ({ db, caller, params, body }) => changePage(db, caller, params.slug, body),
})

export const DELETE = defineRoute('pages:write', 'Delete a content page', {
  operationId: 'deletePage',
  description: 'Gone from the public site at the next build.',
  params: SlugParams,
  publishes: true,
  responses: ok(PageView, 'The page as it was before it was deleted', { 404: 'No such page' }),
  handler: ({ db, caller, params }) => deletePage(db, caller, params.slug),
})
