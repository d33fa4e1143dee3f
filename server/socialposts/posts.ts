// Social posts reported by the publisher (which holds the signing secret; the site never does): the status
// they read as, how they are shown, ingesting a report with its image, and cancelling or rescheduling through
// the publisher.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { POST_STATUSES, type PostStatus, type SocialPost } from './tables.ts'
import { record, write } from '../db/write.ts'
import { badGateway, conflict, HttpError, notFound, unprocessable } from '../errors.ts'
import { Instant, Line, Lines, Nullable, nowIso, OneOf, OptionalNullable, parseTimestamp, t, Timestamp, withMessage } from '../schemas.ts'
import { getSetting, siteTime } from '../settings/registry.ts'
import { assertLeadsSlug } from '../auth/led-units.ts'
import type { Outbound } from '../http/outbound.ts'
import { errorText, logEvent } from '../ops/log.ts'

export const PUBLISHER_TIMEOUT_MS = 8000
const MAX_IMAGE_BYTES = 5 * 1024 * 1024
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']

export const PostId = withMessage(
  t.String({ pattern: '^[a-z0-9_-]{1,40}/[A-Za-z0-9._-]{1,200}$', examples: ['pack/2026-11-30-popcorn'] }),
  'must look like <unit>/<queue-stem>',
)

/** A post whose time has passed reads as published, unless it was cancelled or failed. */
export function statusOf(p: Pick<SocialPost, 'status' | 'scheduled_for'>, now = Date.now()): PostStatus {
  if (p.status === 'cancelled' || p.status === 'failed' || p.status === 'published') return p.status
  return Date.parse(p.scheduled_for) <= now ? 'published' : p.status
}

const EXAMPLE = {
  id: 'pack/2026-11-30-popcorn',
  unit: 'pack',
  status: 'scheduled',
  page_id: '1029384756',
  social_post_id: null,
  message: 'Popcorn orders are due Friday!',
  link: 'https://pack123.example.org/',
  scheduled_for: '2026-11-30T15:00:00.000Z',
  queue_file: 'pack/2026-11-30-popcorn.json',
  cancel_url: 'https://publisher.lan/cancel/pack%2F2026-11-30-popcorn?sig=3f9a…',
  image_ref: 'popcorn.png',
  reported_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T08:00:00.000Z',
  image: {
    mime: 'image/png',
    sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    url: '/api/admin/socialposts/pack/2026-11-30-popcorn/image',
  },
}

export const PostView = t.Object(
  {
    id: t.String({ description: '<unit>/<queue-stem>' }),
    unit: t.String(),
    status: OneOf(POST_STATUSES),
    page_id: Nullable(t.String()),
    social_post_id: Nullable(t.String()),
    message: t.String(),
    link: Nullable(t.String()),
    scheduled_for: Instant,
    queue_file: Nullable(t.String()),
    cancel_url: Nullable(t.String({ description: "The publisher's signed link; null while a rescheduled post waits as a draft" })),
    image_ref: Nullable(t.String()),
    reported_at: Instant,
    updated_at: Instant,
    image: Nullable(t.Object({ mime: t.String(), sha256: t.String(), url: t.String() }, { additionalProperties: false })),
  },
  { $id: 'SocialPost', additionalProperties: false, examples: [EXAMPLE] },
)

export const PostAnswer = t.Object({ post: PostView }, { additionalProperties: false, examples: [{ post: EXAMPLE }] })

export const PostList = t.Object(
  {
    timezone: t.String({ description: "The site's time zone, in which pages show times" }),
    posts: t.Array(PostView, { description: 'Newest scheduled first' }),
  },
  { additionalProperties: false, examples: [{ timezone: 'America/Chicago', posts: [EXAMPLE] }] },
)

export const PostListQuery = t.Object({
  all: t.Optional(t.Boolean({ description: 'true: published posts too', examples: [true] })),
})

export function postView(p: SocialPost) {
  const { image, image_mime, image_sha256, ...rest } = p
  return {
    ...rest,
    status: statusOf(p),
    image:
      image && image_mime && image_sha256 ? { mime: image_mime, sha256: image_sha256, url: `/api/admin/socialposts/${p.id}/image` } : null,
  }
}

/** Every reported post with its status; only published ones drop out of the list, unless `all`. */
export async function listPosts(db: Executor, all: boolean) {
  const posts = (await db.selectFrom('social_posts').selectAll().orderBy('scheduled_for', 'desc').execute()).map(postView)
  return { timezone: await getSetting(db, 'site.timezone'), posts: all ? posts : posts.filter((p) => p.status !== 'published') }
}

async function findPost(db: Executor, id: string) {
  const post = await db.selectFrom('social_posts').selectAll().where('id', '=', id).executeTakeFirst()
  if (!post) throw notFound('No such post')
  return post
}

/** The stored image with its type; 404 when the post has none. */
export async function postImage(db: Executor, id: string): Promise<Response> {
  const post = await findPost(db, id)
  if (!post.image || !post.image_mime) throw notFound('This post has no image')
  return new Response(new Uint8Array(post.image), {
    headers: { 'content-type': post.image_mime, 'cache-control': 'private, max-age=3600', etag: `"${post.image_sha256}"` },
  })
}

const text = (max: number) => OptionalNullable(Line(max))

export const PostReport = t.Object(
  {
    id: PostId,
    unit: Line(40, { minLength: 1 }),
    status: OneOf(POST_STATUSES),
    page_id: text(100),
    social_post_id: text(200),
    message: Lines(10_000),
    link: text(2000),
    scheduled_for: Timestamp,
    queue_file: text(500),
    cancel_url: OptionalNullable(withMessage(t.String({ maxLength: 2000, pattern: '^https?://' }), 'must be an http(s) URL')),
    image_ref: text(500),
    image: OptionalNullable(
      t.Object(
        {
          b64: withMessage(t.String({ pattern: '^[A-Za-z0-9+/]*={0,2}$' }), 'is not base64'),
          mime: Line(100, { description: 'image/png, image/jpeg, image/gif or image/webp' }),
          sha256: withMessage(t.String({ pattern: '^[0-9a-fA-F]{64}$' }), 'must be 64 hex digits'),
        },
        { additionalProperties: false, description: 'At most 5 MiB decoded; the SHA-256 is checked' },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: 'pack/2026-11-30-popcorn',
        unit: 'pack',
        status: 'scheduled',
        message: 'Popcorn orders are due Friday!',
        scheduled_for: '2026-11-30T09:00:00-06:00',
        queue_file: 'pack/2026-11-30-popcorn.json',
        cancel_url: 'https://publisher.lan/cancel/pack%2F2026-11-30-popcorn?sig=3f9a',
      },
    ],
  },
)

/**
 * Stores a report (a re-report of the same id updates it; an omitted image keeps the stored one). A cancel_url
 * on this machine or a private network is refused (422): a leader's cancel would make the service call it.
 */
export async function ingestPost(db: Db, outbound: Outbound, caller: Caller, report: typeof PostReport.static) {
  const cancelProblem = report.cancel_url ? outbound.problemWith(report.cancel_url) : null
  if (cancelProblem) throw unprocessable(`cancel_url: ${cancelProblem}`)
  const scheduled = new Date(parseTimestamp('scheduled_for', report.scheduled_for)).toISOString()
  const { image, ...fields } = report
  let imageColumns = {}
  if (image) {
    if (!IMAGE_TYPES.includes(image.mime)) throw unprocessable(`image.mime: must be one of ${IMAGE_TYPES.join(', ')}`)
    if (image.b64.length % 4) throw unprocessable('image.b64: is not base64')
    const bytes = Buffer.from(image.b64, 'base64')
    if (bytes.length > MAX_IMAGE_BYTES) throw new HttpError(413, `image: larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`)
    const sha = new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
    if (sha !== image.sha256.toLowerCase()) throw unprocessable('image.sha256: does not match the decoded image')
    imageColumns = { image: new Uint8Array(bytes), image_mime: image.mime, image_sha256: sha }
  }
  return write(db, async (trx) => {
    const now = nowIso()
    const values = { ...fields, scheduled_for: scheduled, ...imageColumns, updated_at: now }
    // A rescheduled post waits as a draft until the publisher reports it again under a new id: that report replaces it.
    if (fields.queue_file)
      await trx
        .deleteFrom('social_posts')
        .where('queue_file', '=', fields.queue_file)
        .where('status', '=', 'drafted')
        .where('id', '!=', fields.id)
        .execute()
    await trx
      .insertInto('social_posts')
      .values({ ...values, reported_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute()
    await record(
      trx,
      caller.actor,
      'socialposts.ingest',
      `The ${fields.unit} post “${fields.message.slice(0, 60)}” is ${fields.status.replace('_', ' ')}, for ${await siteTime(trx, scheduled)}${image ? ', with an image' : ''}`,
    )
    return { post: postView(await findPost(trx, fields.id)) }
  })
}

/** 409 before anything is sent when the post's time has passed or it cannot be changed any more. */
function assertChangeable(p: SocialPost) {
  const status = statusOf(p)
  if (status === 'published') throw conflict('The post time has passed; it is published and can no longer be changed')
  if (status === 'cancelled' || status === 'failed') throw conflict(`The post is ${status}`)
  if (!p.cancel_url) throw conflict('The post has no cancel link yet; the publisher sends one when it schedules the post again')
}

/**
 * Sends a request to the publisher; 2xx resolves. Anything else is 502 in the same plain words whether the
 * publisher refused, did not answer or sits at an address the service may not call, so the answer tells nothing
 * about what listens where; the service log keeps what happened. The publisher's reply is never echoed.
 */
async function callPublisher(outbound: Outbound, url: string, init: RequestInit, what: string): Promise<void> {
  let detail: string
  try {
    const res = await outbound.fetch(url, init, PUBLISHER_TIMEOUT_MS)
    await res.body?.cancel()
    if (res.ok) return
    detail = `HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : ''}`
  } catch (error) {
    detail = (error as Error).name === 'TimeoutError' ? `no answer within ${PUBLISHER_TIMEOUT_MS / 1000} s` : errorText(error)
  }
  logEvent('publisher.call', { ok: false, message: `The publisher did not ${what}: ${detail}` })
  throw badGateway(`The publisher did not ${what}: it refused or could not be reached. The service log says why.`)
}

/** A leader changes only their units' posts; the unit is the id's first part (`pack/2026-11-30-popcorn`). */
const assertLeadsPostUnit = (caller: Caller, id: string) => assertLeadsSlug(caller, id.split('/')[0], 'This post')

/** Cancels through the publisher's signed link, and records it once the publisher accepted. */
export async function cancelPost(db: Db, outbound: Outbound, caller: Caller, id: string) {
  const post = await findPost(db, id)
  assertLeadsPostUnit(caller, id)
  assertChangeable(post)
  await callPublisher(outbound, post.cancel_url!, { method: 'POST' }, 'cancel the post')
  return write(db, async (trx) => {
    await trx.updateTable('social_posts').set({ status: 'cancelled', updated_at: nowIso() }).where('id', '=', id).execute()
    await record(
      trx,
      caller.actor,
      'socialposts.cancel',
      `Cancelled the ${post.unit} post “${post.message.slice(0, 60)}” that was due ${await siteTime(trx, post.scheduled_for)}`,
    )
    return { post: postView(await findPost(trx, id)) }
  })
}

export const Reschedule = t.Object(
  { message: Lines(10_000, { minLength: 1 }), scheduled_for: Timestamp },
  { additionalProperties: false, examples: [{ message: 'Popcorn orders are due Saturday!', scheduled_for: '2026-12-01T09:00:00-06:00' }] },
)

/** Asks the control server (signed with the post's own signature) to redraft the post; it waits as a draft. */
export async function reschedulePost(db: Db, outbound: Outbound, caller: Caller, id: string, input: typeof Reschedule.static) {
  const post = await findPost(db, id)
  assertLeadsPostUnit(caller, id)
  const minutes = await getSetting(db, 'socialposts.min_lead_minutes')
  const when = parseTimestamp('scheduled_for', input.scheduled_for)
  if (when < Date.now() + minutes * 60_000) throw unprocessable(`scheduled_for: must be at least ${minutes} minutes from now`)
  assertChangeable(post)
  const control = await getSetting(db, 'socialposts.control_url')
  if (!control) throw conflict('The publisher is not configured: set the socialposts.control_url setting')
  const signature = new URL(post.cancel_url!).searchParams.get('sig')
  if (!signature) throw badGateway("The post's cancel link carries no signature; the publisher must report it again")
  const scheduled = new Date(when).toISOString()
  await callPublisher(
    outbound,
    `${control.replace(/\/+$/, '')}/reschedule`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-post-signature': signature },
      body: JSON.stringify({ id, message: input.message, scheduled_for: scheduled }),
    },
    'reschedule the post',
  )
  return write(db, async (trx) => {
    await trx
      .updateTable('social_posts')
      .set({ status: 'drafted', cancel_url: null, message: input.message, scheduled_for: scheduled, updated_at: nowIso() })
      .where('id', '=', id)
      .execute()
    await record(
      trx,
      caller.actor,
      'socialposts.reschedule',
      `Asked the publisher to move the ${post.unit} post “${input.message.slice(0, 60)}” to ${await siteTime(trx, scheduled)}`,
    )
    return { post: postView(await findPost(trx, id)) }
  })
}
