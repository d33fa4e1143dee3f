// The action log, read: filters shared by the JSON list and the CSV export, newest first, paged by `before`.
import { sql } from 'kysely'
import { csvDocument, csvRows } from '../csv.ts'
import type { Executor } from '../db/database.ts'
import { unprocessable } from '../errors.ts'
import { Instant, Line, Nullable, t } from '../schemas.ts'

const filters = {
  kind: t.Optional(Line(100, { description: 'Kind prefix, e.g. `keys.` or `login`', examples: ['keys.'] })),
  actor: t.Optional(Line(300, { description: 'Exact actor, e.g. an email or `break_glass`', examples: ['akela@example.org'] })),
  since: t.Optional(Line(40, { description: 'ISO timestamp: entries at or after it', examples: ['2026-11-01T00:00:00Z'] })),
  before: t.Optional(Line(40, { description: 'ISO timestamp: entries before it (paging)', examples: ['2026-11-23T08:00:00.000Z'] })),
}

export const HistoryFilter = t.Object(filters)

export const HistoryQuery = t.Object({
  ...filters,
  before_id: t.Optional(t.Integer({ minimum: 1, description: 'With `before`: the id of the last entry seen, for ties', examples: [120] })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, description: 'Page size, 50 by default', examples: [50] })),
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
      { description: 'Newest first' },
    ),
    next: Nullable(
      t.Object(
        { before: Instant, before_id: t.Integer() },
        { additionalProperties: false, description: 'Pass both as the query for the next page; null on the last' },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ entries: [ENTRY_EXAMPLE], next: { before: ENTRY_EXAMPLE.at, before_id: 120 } }] },
)

function timestamp(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const ms = Date.parse(value)
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) throw unprocessable(`${name}: must be an ISO 8601 timestamp`)
  return new Date(ms).toISOString()
}

function historyQuery(db: Executor, f: typeof HistoryQuery.static) {
  const since = timestamp('since', f.since)
  const before = timestamp('before', f.before)
  const beforeId = f.before_id
  return (
    db
      .selectFrom('action_log')
      .selectAll()
      // A prefix as a range, so the (kind, at) index serves it and no LIKE wildcards apply.
      .$if(!!f.kind, (q) => q.where('kind', '>=', f.kind!).where('kind', '<', f.kind + '\u{10FFFF}'))
      .$if(!!f.actor, (q) => q.where('actor', '=', f.actor!))
      .$if(!!since, (q) => q.where('at', '>=', since!))
      // A row value, which SQLite reads as one range of the (at, id) index; an `or` of the two made it scan.
      .$if(!!before, (q) => (beforeId ? q.where(sql<boolean>`(at, id) < (${before!}, ${beforeId})`) : q.where('at', '<', before!)))
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
  )
}

export async function history(db: Executor, query: typeof HistoryQuery.static) {
  const limit = query.limit ?? 50
  const rows = await historyQuery(db, query)
    .limit(limit + 1)
    .execute()
  const entries = rows.slice(0, limit)
  const last = entries.at(-1)
  return { entries, next: rows.length > limit && last ? { before: last.at, before_id: last.id } : null }
}

const EXPORT_BATCH = 1000

/**
 * The filtered log as a CSV stream, newest first, read 1,000 entries at a time (keyset paging on `at`, `id`), so
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
