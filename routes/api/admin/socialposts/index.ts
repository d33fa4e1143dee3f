// GET /api/admin/socialposts: reported posts, newest scheduled first, with status; published ones drop out unless `all=true`.
import { defineRoute } from '#server/routes.ts'
import { listPosts, PostList, PostListQuery } from '#server/socialposts/posts.ts'

export const GET = defineRoute({
  auth: 'socialposts:read',
  summary: 'Reported posts, newest scheduled first, each with its status; published ones drop out unless `all=true`',
  query: PostListQuery,
  responses: { 200: { description: 'The posts, and the time zone to show their times in', schema: PostList } },
  handler: ({ db, query }) => listPosts(db, query.all ?? false),
})
