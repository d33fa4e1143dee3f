// Announcements: how one is shown, creating one within the character and live caps, and revoking one.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import { ANNOUNCEMENT_UNITS } from './tables.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { conflict, notFound, unprocessable } from '../errors.ts'
import { getSetting, siteTime } from '../settings/registry.ts'
import { Instant, Lines, Nullable, nowIso, OneOf, parseTimestamp, t, Timestamp } from '../schemas.ts'
import { UNIT_WORDS } from '../words.ts'
import { decodeCursor, encodeCursor, NextCursor, PAGE, PageQuery, pageOf } from '../http/paging.ts'
import { announcementsPage, announcementsWithState, announcementWithState, liveAnnouncements, STATES } from './state.ts'

const EXAMPLE = {
  id: 12,
  message: 'Pinewood derby moved to Saturday',
  starts_at: '2026-11-20T18:00:00.000Z',
  ends_at: '2026-12-06T00:00:00.000Z',
  created_at: '2026-11-20T17:55:02.000Z',
  created_by: 'akela@example.org',
  revoked_at: null,
  unit: 'pack',
  state: 'live',
}

export const AnnouncementView = t.Object(
  {
    id: t.Integer(),
    message: t.String(),
    starts_at: Instant,
    ends_at: Instant,
    created_at: Instant,
    created_by: t.String({ description: 'Who made it, as the action log names them' }),
    revoked_at: Nullable(Instant),
    unit: OneOf(ANNOUNCEMENT_UNITS, { description: 'Whose public pages show it: the pack, the troop, or both (every page)' }),
    state: OneOf(STATES, { description: 'revoked > expired > scheduled > live or over_cap (open, but the live cap is full)' }),
  },
  { $id: 'Announcement', additionalProperties: false, examples: [EXAMPLE] },
)

export const AnnouncementList = t.Object(
  {
    announcements: t.Array(AnnouncementView, { description: 'Newest first' }),
    max_chars: t.Integer({ description: 'The most characters a message may have (setting announcements.max_chars)' }),
    live_cap: t.Integer({ description: 'How many may show at once (setting announcements.live_cap)' }),
    next_cursor: t.Optional({ ...NextCursor, description: 'Only when paging (`limit` or `cursor` sent): the cursor of the next page' }),
  },
  { additionalProperties: false, examples: [{ announcements: [EXAMPLE], max_chars: 280, live_cap: 3 }] },
)

export const NewAnnouncement = t.Object(
  {
    message: Lines(2000, { minLength: 1, description: 'At most announcements.max_chars characters (280 by default)' }),
    ends_at: Timestamp,
    starts_at: t.Optional(Timestamp),
    unit: t.Optional(
      OneOf(ANNOUNCEMENT_UNITS, {
        description: "Whose pages show it: the pack's, the troop's (and the home page), or both, every page, when absent",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ message: 'Pinewood derby moved to Saturday', ends_at: '2026-12-06T00:00:00-06:00', unit: 'pack' }],
  },
)

export const LiveCapFull = t.Object(
  {
    detail: t.String(),
    code: t.Literal('live_cap_reached'),
    live: t.Array(AnnouncementView, { description: 'The announcements live now' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        detail: 'The live cap of 3 announcements is reached; revoke one or schedule this later',
        code: 'live_cap_reached',
        live: [EXAMPLE],
      },
    ],
  },
)

/** One announcement with its state, as the list shows it; 404 when there is none. */
export async function announcementById(db: Executor, id: number) {
  const found = await announcementWithState(db, id)
  if (!found) throw notFound('No such announcement')
  return found
}

/** The list takes `limit` and `cursor` to page; without either it is every announcement. */
export const AnnouncementListQuery = t.Object({ ...PageQuery })

/** A cursor's position: the last announcement's id (the list is newest first by id). */
const Position = t.Tuple([t.Integer()])

export async function listAnnouncements(db: Executor, query: typeof AnnouncementListQuery.static) {
  const caps = { max_chars: await getSetting(db, 'announcements.max_chars'), live_cap: await getSetting(db, 'announcements.live_cap') }
  if (query.limit === undefined && query.cursor === undefined) return { announcements: await announcementsWithState(db), ...caps }
  const limit = query.limit ?? PAGE.default
  const after = query.cursor ? decodeCursor('announcements', query, query.cursor, Position) : undefined
  const page = pageOf(await announcementsPage(db, after?.[0] ?? null, limit), limit)
  const last = page.rows.at(-1)
  return {
    announcements: page.rows,
    ...caps,
    next_cursor: page.more && last ? encodeCursor('announcements', query, [last.id]) : null,
  }
}

/** 422 for an empty or over-long message or a bad window; 409 with the live ones when this would be live over the cap. */
export async function createAnnouncement(db: Db, caller: Caller, input: typeof NewAnnouncement.static) {
  const maxChars = await getSetting(db, 'announcements.max_chars')
  const message = input.message.trim()
  if (!message) throw unprocessable('message: must not be empty')
  const length = [...message].length
  if (length > maxChars) throw unprocessable(`message: must be at most ${maxChars} characters (it has ${length})`)
  const now = Date.now()
  const starts = input.starts_at ? parseTimestamp('starts_at', input.starts_at) : now
  const ends = parseTimestamp('ends_at', input.ends_at)
  if (ends <= starts) throw unprocessable('ends_at: must be after starts_at')
  if (ends <= now) throw unprocessable('ends_at: must be in the future')
  const id = await write(db, async (trx) => {
    if (starts <= now) {
      const live = await liveAnnouncements(trx, now)
      const cap = await getSetting(trx, 'announcements.live_cap')
      if (live.length >= cap)
        throw conflict(`The live cap of ${cap} announcements is reached; revoke one or schedule this later`, 'live_cap_reached', { live })
    }
    const row = await trx
      .insertInto('announcements')
      .values({
        message,
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(ends).toISOString(),
        created_at: nowIso(),
        created_by: caller.actor,
        unit: input.unit ?? 'both',
      })
      .returning(['id', 'ends_at'])
      .executeTakeFirstOrThrow()
    await record(
      trx,
      caller.actor,
      'announcements.create',
      `“${message.slice(0, 80)}${message.length > 80 ? '…' : ''}”, for ${UNIT_WORDS[input.unit ?? 'both'].toLowerCase()}, shown until ${await siteTime(trx, row.ends_at)}`,
    )
    return row.id
  })
  return announcementById(db, id)
}

/** Revokes an announcement: the row stays with revoked_at set; again 409, unknown 404. */
export async function revokeAnnouncement(db: Db, caller: Caller, id: number) {
  await write(db, async (trx) => {
    const row = await trx.selectFrom('announcements').select(['id', 'revoked_at']).where('id', '=', id).executeTakeFirst()
    if (!row) throw notFound('No such announcement')
    if (row.revoked_at) throw conflict('The announcement is already revoked')
    await trx.updateTable('announcements').set({ revoked_at: nowIso() }).where('id', '=', id).execute()
    await record(trx, caller.actor, 'announcements.revoke', `Revoked announcement #${id}`)
  })
  return announcementById(db, id)
}
