// GET/POST /api/admin/announcements: every announcement with its computed state; create one within the caps.
import { announcementsWithState } from '../../../../server/announcements/state.ts'
import { conflict, unprocessable } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { nowIso, parseTimestamp, t, Timestamp } from '../../../../server/schemas.ts'
import { getSetting } from '../../../../server/settings/registry.ts'

export const GET = defineRoute({
  auth: 'announcements:write',
  summary: 'All announcements with their computed state, newest first',
  handler: async ({ db }) => ({ announcements: await announcementsWithState(db) }),
})

export const POST = defineRoute({
  auth: 'announcements:write',
  summary: 'Create an announcement (422 bad window or too long; 409 when the live cap is full)',
  body: t.Object(
    { message: t.String({ minLength: 1 }), ends_at: Timestamp, starts_at: t.Optional(Timestamp) },
    { additionalProperties: false },
  ),
  async handler({ db, body, caller, set, publicDataChanged }) {
    const maxChars: number = await getSetting(db, 'announcements.max_chars')
    const message = body.message.trim()
    if (!message) throw unprocessable('message: must not be empty')
    if ([...message].length > maxChars)
      throw unprocessable(`message: must be at most ${maxChars} characters (it has ${[...message].length})`)
    const now = Date.now()
    const starts = body.starts_at ? parseTimestamp('starts_at', body.starts_at) : now
    const ends = parseTimestamp('ends_at', body.ends_at)
    if (ends <= starts) throw unprocessable('ends_at: must be after starts_at')
    if (ends <= now) throw unprocessable('ends_at: must be in the future')
    const created = await db.transaction().execute(async (trx) => {
      if (starts <= now) {
        const live = (await announcementsWithState(trx, now)).filter((a) => a.state === 'live')
        const cap: number = await getSetting(trx, 'announcements.live_cap')
        if (live.length >= cap)
          throw conflict({ error: `The live cap of ${cap} announcements is reached; revoke one or schedule this later`, live })
      }
      const row = await trx
        .insertInto('announcements')
        .values({
          message,
          starts_at: new Date(starts).toISOString(),
          ends_at: new Date(ends).toISOString(),
          created_at: nowIso(),
          created_by: caller.actor,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'announcements.create', `Announcement #${row.id} until ${row.ends_at}: ${message.slice(0, 80)}`)
      return row
    })
    publicDataChanged()
    set.status = 201
    return (await announcementsWithState(db)).find((a) => a.id === created.id)
  },
})
