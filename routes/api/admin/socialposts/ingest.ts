// POST /api/admin/socialposts/ingest: the publisher reports a post (idempotent by id), optionally with its image.
import { defineRoute } from '#server/routes.ts'
import { ingestPost, PostAnswer, PostReport } from '#server/socialposts/posts.ts'

export const POST = defineRoute({
  auth: 'socialposts:ingest',
  summary: 'Report a post (a re-report of the same id updates it); image {b64, mime, sha256} is checked',
  maxBody: 8 * 1024 * 1024,
  body: PostReport,
  responses: {
    200: { description: 'The post as stored', schema: PostAnswer },
    413: 'The body is over 8 MiB, or the image over 5 MiB decoded',
    422: 'An image hash that does not match, a type that is not an image, or a field that does not fit',
  },
  handler: ({ db, caller, body }) => ingestPost(db, caller, body),
})
