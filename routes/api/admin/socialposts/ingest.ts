// POST /api/admin/socialposts/ingest: the publisher reports a post (idempotent by id), optionally with its image.
import { defineRoute, ok } from '#server/routes.ts'
import { ingestPost, PostAnswer, PostReport } from '#server/socialposts/posts.ts'

export const POST = defineRoute('socialposts:ingest', 'Report a post', {
  operationId: 'ingestSocialPosts',
  description: 'A re-report of the same id updates it. The image {b64, mime, sha256} is checked: its SHA-256 is recomputed.',
  maxBody: 8 * 1024 * 1024,
  body: PostReport,
  responses: ok(PostAnswer, 'The post as stored', {
    413: 'The body is over 8 MiB, or the image over 5 MiB decoded',
    422: 'An image hash that does not match, a type that is not an image, or a cancel_url on this machine or a private network',
  }),
  handler: ({ db, caller, body, outbound }) => ingestPost(db, outbound, caller, body),
})
