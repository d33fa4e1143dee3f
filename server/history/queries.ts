// Action-log reading: filters shared by the JSON list and the CSV export.
import { t } from '../schemas.ts'
import { unprocessable } from '../errors.ts'
import type { Executor } from './record.ts'

export const HistoryFilterQuery = {
  kind: t.Optional(t.String({ maxLength: 100, description: 'Kind prefix, e.g. `keys.` or `login`' })),
  actor: t.Optional(t.String({ maxLength: 300, description: 'Exact actor, e.g. an email or `break_glass`' })),
  since: t.Optional(t.String({ maxLength: 40, description: 'ISO timestamp: entries at or after it' })),
  before: t.Optional(t.String({ maxLength: 40, description: 'ISO timestamp: entries before it (paging)' })),
}

export interface HistoryFilter {
  kind?: string
  actor?: string
  since?: string
  before?: string
  before_id?: number
}

function timestamp(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const ms = Date.parse(value)
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) throw unprocessable(`${name}: must be an ISO 8601 timestamp`)
  return new Date(ms).toISOString()
}

export function historyQuery(db: Executor, f: HistoryFilter) {
  let q = db.selectFrom('action_log').selectAll()
  // A prefix as a range, so the (kind, at) index serves it and no LIKE wildcards apply.
  if (f.kind) q = q.where('kind', '>=', f.kind).where('kind', '<', f.kind + '\u{10FFFF}')
  if (f.actor) q = q.where('actor', '=', f.actor)
  const since = timestamp('since', f.since)
  if (since) q = q.where('at', '>=', since)
  const before = timestamp('before', f.before)
  if (before) {
    const beforeId = f.before_id
    q = beforeId
      ? q.where((eb) => eb.or([eb('at', '<', before), eb.and([eb('at', '=', before), eb('id', '<', beforeId)])]))
      : q.where('at', '<', before)
  }
  return q.orderBy('at', 'desc').orderBy('id', 'desc')
}
