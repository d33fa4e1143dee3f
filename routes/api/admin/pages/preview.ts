// POST /api/admin/pages/preview: a page body as the public site will show it (the build's own renderer).
import { previewPage, PreviewInput, PreviewView } from '#server/pages/pages.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('pages:write', 'Preview a content page', {
  operationId: 'previewPage',
  description: 'Renders and sanitises the Markdown exactly as the site build does; nothing is saved.',
  body: PreviewInput,
  responses: ok(PreviewView, 'The page body as HTML, and its meta description'),
  handler: ({ db, body }) => previewPage(db, body.body),
})
