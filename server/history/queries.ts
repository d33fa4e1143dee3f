// The action log, read: filters shared by the JSON list and the CSV export, newest first, paged by cursor (or
// the older `before`/`before_id`). Newest means the highest id: ids only grow, while `at` is the clock's word and
// goes back when the clock is set back, so the order and the paging follow the id and `at` only filters.
import { csvDocument, csvRows } from '../csv.ts'
import type { Executor } from '../db/database.ts'
import { TIMESTAMP_HINT } from '../formats.ts'
import { decodeCursor, encodeCursor, NextCursor, PAGE, PageQuery, pageOf } from '../http/paging.ts'
import { Instant, Line, Nullable, parseTimestamp, t, withMessage } from '../schemas.ts'

const moment = (description: string, example: string) =>
  t.Optional(withMessage(t.String({ format: 'date-time', maxLength: 40, description, examples: [example] }), TIMESTAMP_HINT))

const filters = {
  kind: t.Optional(Line(100, { description: 'Kind prefix, e.g. `keys.` or `login`', examples: ['keys.'] })),
  actor: t.Optional(Line(300, { description: 'Exact actor, e.g. an email or `break_glass`', examples: ['akela@example.org'] })),
  since: moment('Entries at or after this moment (RFC 3339)', '2026-11-01T00:00:00Z'),
  before: moment(
    'Entries before this moment (RFC 3339). Older form of paging: with `before_id`, the `next` of the previous page (then `before_id` alone decides)',
    '2026-11-23T08:00:00.000Z',
  ),
}

export const HistoryFilter = t.Object(filters)

export const HistoryQuery = t.Object({
  ...filters,
  before_id: t.Optional(
    t.Integer({
      minimum: 1,
      description: 'Older form of paging: with `before`, the id of the last entry seen; older entries have lower ids',
      examples: [120],
    }),
  ),
  ...PageQuery,
})

const ENTRY_EXAMPLE = {
  id: 120,
  at: '2026-11-23T08:01:00.000Z',
  kind: 'leads.claim',
  actor: 'akela@example.org',
  summary: 'Claimed lead #31 (Robin Hale)',
}

export const HistoryPage = t.Object(
  {
    entries: t.Array(
      t.Object(
        {
          id: t.Integer(),
          at: Instant,
          kind: t.String({ description: 'Dotted: keys.mint, login.failure, calendar.create, …' }),
          actor: t.String({ description: 'A person (email), a key (label and id), break_glass, anonymous or system' }),
          summary: t.String(),
        },
        { additionalProperties: false },
      ),
      { description: 'Newest first: in the order they were written (by id), even when the clock was set back meanwhile' },
    ),
    next: Nullable(
      t.Object(
        { before: Instant, before_id: t.Integer() },
        {
          additionalProperties: false,
          description: 'Older form of `next_cursor`: pass both as the query for the next page; null on the last',
        },
      ),
    ),
    next_cursor: NextCursor,
  },
  {
    additionalProperties: false,
    examples: [
      {
        entries: [ENTRY_EXAMPLE],
        next: { before: ENTRY_EXAMPLE.at, before_id: 120 },
        next_cursor: 'eyJiIjoiQWJDZEVmR2hJaiIsInAiOlsiMjAyNi0xMS0yM1QwODowMTowMC4wMDBaIiwxMjBdfQ',
      },
    ],
  },
)

/** The moment in the log's own form (UTC, milliseconds), so it compares as text with `at`. */
const logTime = (name: string, value: string | undefined) =>
  value === undefined ? undefined : new Date(parseTimestamp(name, value)).toISOString()

/** A cursor's position: the last entry's `at` and id (the id alone places it; `at` stays so older cursors still read). */
const Position = t.Tuple([Instant, t.Integer()])

function historyQuery(db: Executor, f: typeof HistoryQuery.static) {
  const since = logTime('since', f.since)
  const before = logTime('before', f.before)
  const beforeId = f.before_id
  const after = f.cursor ? decodeCursor('history', f, f.cursor, Position) : undefined
  return (
    db
      .selectFrom('action_log')
      .selectAll()
      // A prefix as a range, so the (kind, at) index serves it and no LIKE wildcards apply.
      .$if(!!f.kind, (q) => q.where('kind', '>=', f.kind!).where('kind', '<', f.kind + '\u{10FFFF}'))
      .$if(!!f.actor, (q) => q.where('actor', '=', f.actor!))
      .$if(!!since, (q) => q.where('at', '>=', since!))
      .$if(!!before && !beforeId, (q) => q.where('at', '<', before!))
      .$if(!!beforeId, (q) => q.where('id', '<', beforeId!))
      .$if(!!after, (q) => q.where('id', '<', after![1]))
      .orderBy('id', 'desc')
  )
}

export async function history(db: Executor, query: typeof HistoryQuery.static) {
  const limit = query.limit ?? PAGE.default
  const { rows: entries, more } = pageOf(
    await historyQuery(db, query)
      .limit(limit + 1)
      .execute(),
    limit,
  )
  const last = entries.at(-1)
  return {
    entries,
    next: more && last ? { before: last.at, before_id: last.id } : null,
    next_cursor: more && last ? encodeCursor('history', query, [last.at, last.id]) : null,
  }
}

const EXPORT_BATCH = 1000

/**
 * The filtered log as a CSV stream, newest first, read 1,000 entries at a time (keyset paging on the id), so
 * memory stays the same however long the log is. Entries written meanwhile are newer than the first batch and
 * are not in it.
 */
export function historyCsv(db: Executor, filter: typeof HistoryFilter.static): ReadableStream<Uint8Array> {
  historyQuery(db, filter) // refuses a bad filter now, while the answer can still be a 422
  const encoder = new TextEncoder()
  let next: { before: string; before_id: number } | null | undefined
  return new ReadableStream({
    async pull(controller) {
      if (next === undefined) controller.enqueue(encoder.encode(csvDocument(['id', 'at', 'kind', 'actor', 'summary'], [])))
      if (next === null) return controller.close()
      const rows = await historyQuery(db, { ...filter, ...(next ?? {}) })
        .limit(EXPORT_BATCH)
        .execute()
      if (rows.length) controller.enqueue(encoder.encode(csvRows(rows.map((r) => [r.id, r.at, r.kind, r.actor, r.summary]))))
      const last = rows.at(-1)
      next = rows.length === EXPORT_BATCH && last ? { before: last.at, before_id: last.id } : null
    },
  })
}
