// POST /api/admin/socialposts/ingest: the publisher reports a post (idempotent by id), optionally with its image.
import { record } from '../../../../server/history/record.ts'
import { HttpError, unprocessable } from '../../../../server/errors.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { nowIso, parseTimestamp, t, Timestamp } from '../../../../server/schemas.ts'
import { postView, STATUSES } from '../../../../server/socialposts/posts.ts'

const MAX_IMAGE_BYTES = 5 * 1024 * 1024
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']
const text = (max: number) => t.Optional(t.Union([t.String({ maxLength: max }), t.Null()]))

export const POST = defineRoute({
  auth: 'socialposts:ingest',
  summary: 'Report a post (a re-report of the same id updates it); image {b64, mime, sha256} is checked',
  maxBody: 8 * 1024 * 1024,
  body: t.Object(
    {
      id: t.String({ pattern: '^[a-z0-9_-]{1,40}/[A-Za-z0-9._-]{1,200}$', error: 'must look like <unit>/<queue-stem>' }),
      unit: t.String({ minLength: 1, maxLength: 40 }),
      status: t.Union(
        STATUSES.map((s) => t.Literal(s)),
        { error: `must be one of ${STATUSES.join(', ')}` },
      ),
      page_id: text(100),
      social_post_id: text(200),
      message: t.String({ maxLength: 10_000 }),
      link: text(2000),
      scheduled_for: Timestamp,
      queue_file: text(500),
      cancel_url: t.Optional(t.Union([t.String({ maxLength: 2000, pattern: '^https?://', error: 'must be an http(s) URL' }), t.Null()])),
      image_ref: text(500),
      image: t.Optional(
        t.Union([
          t.Object(
            {
              b64: t.String(),
              mime: t.String({ maxLength: 100 }),
              sha256: t.String({ pattern: '^[0-9a-fA-F]{64}$', error: 'must be 64 hex digits' }),
            },
            { additionalProperties: false },
          ),
          t.Null(),
        ]),
      ),
    },
    { additionalProperties: false },
  ),
  async handler({ db, body, caller }) {
    const scheduled = new Date(parseTimestamp('scheduled_for', body.scheduled_for)).toISOString()
    const { image, ...fields } = body
    let imageColumns = {}
    if (image) {
      if (!IMAGE_TYPES.includes(image.mime)) throw unprocessable(`image.mime: must be one of ${IMAGE_TYPES.join(', ')}`)
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(image.b64) || image.b64.length % 4) throw unprocessable('image.b64: is not base64')
      const bytes = Buffer.from(image.b64, 'base64')
      if (bytes.length > MAX_IMAGE_BYTES) throw new HttpError(413, `image: larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`)
      const sha = new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
      if (sha !== image.sha256.toLowerCase()) throw unprocessable('image.sha256: does not match the decoded image')
      imageColumns = { image: new Uint8Array(bytes), image_mime: image.mime, image_sha256: sha }
    }
    const row = await db.transaction().execute(async (trx) => {
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
        `Post ${fields.id} reported as ${fields.status} for ${scheduled}${image ? ' with an image' : ''}`,
      )
      return trx.selectFrom('social_posts').selectAll().where('id', '=', fields.id).executeTakeFirstOrThrow()
    })
    return { post: postView(row) }
  },
})
