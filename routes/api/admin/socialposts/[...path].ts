// /api/admin/socialposts/<post_id>/{image,cancel,reschedule}: post ids contain a slash, so the tail is split here.
import { conflict, HttpError, notFound, unprocessable } from '../../../../server/errors.ts'
import type { Executor } from '../../../../server/history/record.ts'
import { record } from '../../../../server/history/record.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { nowIso, parseTimestamp, t, Timestamp } from '../../../../server/schemas.ts'
import { getSetting } from '../../../../server/settings/registry.ts'
import { assertChangeable, callPublisher, postView } from '../../../../server/socialposts/posts.ts'

const Path = t.Object({ '*': t.String({ maxLength: 400 }) })

/** `pack/2026-11-30-popcorn/cancel` → the post id and the action; 404 for anything else. */
function split(path: string, actions: string[]): { id: string; action: string } {
  const cut = path.lastIndexOf('/')
  const action = path.slice(cut + 1)
  if (cut <= 0 || !actions.includes(action)) throw notFound()
  return { id: decodeURIComponent(path.slice(0, cut)), action }
}

async function findPost(db: Executor, id: string) {
  const post = await db.selectFrom('social_posts').selectAll().where('id', '=', id).executeTakeFirst()
  if (!post) throw notFound('No such post')
  return post
}

export const GET = defineRoute({
  auth: 'socialposts:read',
  summary: "A post's stored image, with its type (path: <post_id>/image)",
  params: Path,
  async handler({ db, params }) {
    const { id } = split(params['*'], ['image'])
    const post = await findPost(db, id)
    if (!post.image) throw notFound('This post has no image')
    return new Response(new Uint8Array(post.image), {
      headers: { 'content-type': post.image_mime!, 'cache-control': 'private, max-age=3600', etag: `"${post.image_sha256}"` },
    })
  },
})

export const POST = defineRoute({
  auth: 'socialposts:read',
  person: true,
  summary: 'Cancel a post through its signed link, or reschedule it (paths: <post_id>/cancel, <post_id>/reschedule)',
  params: Path,
  body: t.Optional(
    t.Object({ message: t.String({ minLength: 1, maxLength: 10_000 }), scheduled_for: Timestamp }, { additionalProperties: false }),
  ),
  async handler({ db, params, body, caller }) {
    const { id, action } = split(params['*'], ['cancel', 'reschedule'])
    const post = await findPost(db, id)
    if (action === 'cancel') {
      assertChangeable(post)
      await callPublisher(post.cancel_url!, { method: 'POST' }, 'cancel the post')
      return db.transaction().execute(async (trx) => {
        await trx.updateTable('social_posts').set({ status: 'cancelled', updated_at: nowIso() }).where('id', '=', id).execute()
        await record(trx, caller.actor, 'socialposts.cancel', `Cancelled post ${id} scheduled for ${post.scheduled_for}`)
        return { post: postView(await findPost(trx, id)) }
      })
    }
    if (!body) throw unprocessable('body: message and scheduled_for are required')
    const minutes: number = await getSetting(db, 'socialposts.min_lead_minutes')
    const when = parseTimestamp('scheduled_for', body.scheduled_for)
    if (when < Date.now() + minutes * 60_000) throw unprocessable(`scheduled_for: must be at least ${minutes} minutes from now`)
    assertChangeable(post)
    const control: string | null = await getSetting(db, 'socialposts.control_url')
    if (!control) throw conflict('The publisher is not configured: set the socialposts.control_url setting')
    const signature = new URL(post.cancel_url!).searchParams.get('sig')
    if (!signature) throw new HttpError(502, "The post's cancel link carries no signature; the publisher must report it again")
    const scheduled = new Date(when).toISOString()
    await callPublisher(
      `${control.replace(/\/+$/, '')}/reschedule`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-post-signature': signature },
        body: JSON.stringify({ id, message: body.message, scheduled_for: scheduled }),
      },
      'reschedule the post',
    )
    return db.transaction().execute(async (trx) => {
      await trx
        .updateTable('social_posts')
        .set({ status: 'drafted', cancel_url: null, message: body.message, scheduled_for: scheduled, updated_at: nowIso() })
        .where('id', '=', id)
        .execute()
      await record(trx, caller.actor, 'socialposts.reschedule', `Asked the publisher to move post ${id} to ${scheduled}`)
      return { post: postView(await findPost(trx, id)) }
    })
  },
})
