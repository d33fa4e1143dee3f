// Reading join-form leads: one lead with who holds it, its copies, and the list with search, filters and paging.
import { expressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import type { Caller } from '../auth/credential.ts'
import type { Database, Executor } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { decodeCursor, encodeCursor, PAGE, pageOf } from '../http/paging.ts'
import { t } from '../schemas.ts'
import type { LeadQuery } from './schemas.ts'

const columns = [
  'leads.id',
  'leads.created_at',
  'leads.parent_name',
  'leads.email',
  'leads.phone',
  'leads.scout_name',
  'leads.scout_grade',
  'leads.unit',
  'leads.message',
  'leads.claimed_at',
  'claimer.id as claimer_id',
  'claimer.email as claimer_email',
  'household.id as household_id',
] as const

/** A lead with who holds it and the household made from it. */
const withDetails = (from: SelectQueryBuilder<Database, 'leads', {}>) =>
  from
    .leftJoin('people as claimer', 'claimer.id', 'leads.claimed_by')
    .leftJoin('households as household', 'household.lead_id', 'leads.id')
    .select(columns)

const leadsQuery = (db: Executor) => withDetails(db.selectFrom('leads'))

type Row = Awaited<ReturnType<ReturnType<typeof leadsQuery>['executeTakeFirstOrThrow']>>

const leadView = ({ claimer_id, claimer_email, ...lead }: Row) => ({
  ...lead,
  claimed_by: claimer_id === null || claimer_email === null ? null : { id: claimer_id, email: claimer_email },
})

export async function findLead(db: Executor, id: number) {
  const row = await leadsQuery(db).where('leads.id', '=', id).executeTakeFirst()
  if (!row) throw notFound('No such lead')
  return leadView(row)
}

/** A cursor's position: the last lead's id (the list is newest first by id). */
const Position = t.Tuple([t.Integer()])

const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`
/** A trigram index finds text of three characters or more; shorter text is matched by reading the leads. */
const indexable = (text: string) => [...text].length >= 3

/**
 * Case- and accent-insensitive substring match on name, email, phone, message and scout name. Indexable text is
 * looked up in the trigram index (`leads_search`), quoted as one FTS5 phrase so no query syntax applies.
 */
const matches = (text: string) =>
  indexable(text)
    ? sql<SqlBool>`leads.id in (select rowid from leads_search where leads_search match ${ftsPhrase(text)})`
    : sql<SqlBool>`(instr(lower(leads.parent_name), ${text}) > 0 or instr(lower(coalesce(leads.email, '')), ${text}) > 0
  or instr(lower(coalesce(leads.phone, '')), ${text}) > 0 or instr(lower(coalesce(leads.message, '')), ${text}) > 0
  or instr(lower(coalesce(leads.scout_name, '')), ${text}) > 0)`

/**
 * A page of leads, newest first. A search of three characters or more over all leads (or the unclaimed ones)
 * walks the trigram index newest first and stops at the page's end, so it costs the same at 1,000 leads or
 * 100,000; CROSS JOIN keeps SQLite from starting at the leads instead, and ordering by the index's own rowid
 * lets it hand out its newest matches first. "Mine" starts from the few leads the caller holds and checks each
 * against the search.
 */
export async function listLeads(db: Executor, caller: Caller, query: typeof LeadQuery.static) {
  const limit = query.limit ?? PAGE.default
  const after = query.cursor ? decodeCursor('leads', query, query.cursor, Position) : undefined
  const below = Math.min(query.before_id ?? Infinity, after?.[0] ?? Infinity)
  const text = query.q?.trim().toLowerCase()
  const eb = expressionBuilder<Database, 'leads'>()
  const held =
    query.filter === 'unclaimed'
      ? eb('leads.claimed_by', 'is', null)
      : query.filter === 'mine'
        ? eb('leads.claimed_by', '=', caller.person?.id ?? -1)
        : null
  const fromIndex = !!text && indexable(text) && query.filter !== 'mine'
  const id = sql.ref<number>(fromIndex ? 'leads_search.rowid' : 'leads.id')
  const rows = await (
    fromIndex
      ? withDetails(db.selectFrom('leads_search').crossJoin('leads').whereRef('leads.id', '=', 'leads_search.rowid')).where(
          sql<SqlBool>`leads_search match ${ftsPhrase(text)}`,
        )
      : leadsQuery(db).$if(!!text, (q) => q.where(matches(text!)))
  )
    .$if(!!held, (q) => q.where(held!))
    .$if(below !== Infinity, (q) => q.where(id, '<', below))
    .orderBy(id, 'desc')
    .limit(limit + 1)
    .execute()
  const page = pageOf(rows, limit)
  const last = page.more ? page.rows.at(-1)!.id : null
  return {
    leads: page.rows.map(leadView),
    next_before_id: last,
    next_cursor: last === null ? null : encodeCursor('leads', query, [last]),
  }
}

export async function leadWithCopies(db: Executor, id: number) {
  const lead = await findLead(db, id)
  const mirrors = await db
    .selectFrom('mirror_copies')
    .select(['target', 'status', 'attempts', 'last_attempt_at', 'error'])
    .where('lead_id', '=', id)
    .execute()
  return { lead: { ...lead, mirrors } }
}
