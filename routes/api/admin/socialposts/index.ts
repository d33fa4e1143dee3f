// GET /api/admin/socialposts: reported posts, newest scheduled first, with status; published ones drop out unless `all=true`.
import { defineRoute, ok } from '#server/routes.ts'
import { listPosts, PostList, PostListQuery } from '#server/socialposts/posts.ts'

export const GET = defineRoute('socialposts:read', 'List social posts', {
  operationId: 'listSocialPosts',
  description: 'Every reported post, newest scheduled first, with its status; published ones drop out unless `all=true`.',
  query: PostListQuery,
  responses: ok(PostList, 'The posts, and the time zone to show their times in'),
  handler: ({ db, query }) => listPosts(db, query.all ?? false),
})
