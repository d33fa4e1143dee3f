// GET/POST /api/admin/pages: every content page, drafts too; add one.
import { createPage, listPages, NewPage, PageList, PageView } from '#server/pages/pages.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('pages:write', 'List content pages', {
  operationId: 'listPages',
  description: 'Every content page, published or draft, by title.',
  responses: ok(PageList, 'Every content page'),
  handler: ({ db }) => listPages(db),
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
