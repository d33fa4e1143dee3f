// Join-form leads: how one is shown, the list with search, filters and paging, one lead with its copies,
// the claim (one conditional update, so of two racers exactly one wins) and the release.
import { expressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Database, Executor } from '../db/database.ts'
import { LEAD_UNITS, MIRROR_STATUSES } from './tables.ts'
import { record, write } from '../db/write.ts'
import { conflict, forbidden, notFound } from '../errors.ts'
import { decodeCursor, encodeCursor, NextCursor, PAGE, PageQuery, pageOf } from '../http/paging.ts'
import { Instant, Line, Nullable, nowIso, OneOf, t } from '../schemas.ts'

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

const EXAMPLE = {
  id: 31,
  created_at: '2026-11-22T20:14:00.000Z',
  parent_name: 'Robin Hale',
  email: 'robin.hale@example.org',
  phone: null,
  scout_name: 'Jamie',
  scout_grade: '2',
  unit: 'pack',
  message: 'Can we visit a meeting first?',
  claimed_at: '2026-11-23T08:01:00.000Z',
  claimed_by: { id: 3, email: 'akela@example.org' },
  household_id: null,
}

export const LeadView = t.Object(
  {
    id: t.Integer(),
    created_at: Instant,
    parent_name: t.String(),
    email: Nullable(t.String()),
    phone: Nullable(t.String()),
    scout_name: Nullable(t.String()),
    scout_grade: Nullable(t.String()),
    unit: OneOf(LEAD_UNITS),
    message: Nullable(t.String()),
    claimed_at: Nullable(Instant),
    claimed_by: Nullable(
      t.Object({ id: t.Integer(), email: t.String() }, { additionalProperties: false, description: 'Who holds the lead' }),
    ),
    household_id: Nullable(t.Integer({ description: 'The roster household made from this lead, once it is added to the roster' })),
  },
  { $id: 'Lead', additionalProperties: false, examples: [EXAMPLE] },
)

export const LeadAnswer = t.Object({ lead: LeadView }, { additionalProperties: false, examples: [{ lead: EXAMPLE }] })

export const MirrorCopy = t.Object(
  {
    target: t.Literal('spreadsheet'),
    status: OneOf(MIRROR_STATUSES),
    attempts: t.Integer(),
    last_attempt_at: Nullable(Instant),
    error: Nullable(t.String()),
  },
  { additionalProperties: false },
)

export const LeadDetail = t.Object(
  { lead: t.Object({ ...LeadView.properties, mirrors: t.Array(MirrorCopy) }, { additionalProperties: false }) },
  {
    additionalProperties: false,
    examples: [
      {
        lead: {
          ...EXAMPLE,
          mirrors: [{ target: 'spreadsheet', status: 'ok', attempts: 1, last_attempt_at: '2026-11-22T20:14:01.000Z', error: null }],
        },
      },
    ],
  },
)

export const LeadQuery = t.Object({
  q: t.Optional(Line(200, { description: 'Case-insensitive text in the name, email, phone, message or scout name', examples: ['hale'] })),
  filter: t.Optional(
    OneOf(['all', 'unclaimed', 'mine'] as const, { description: 'all (default), unclaimed, or mine (held by the caller)' }),
  ),
  before_id: t.Optional(
    t.Integer({ minimum: 1, description: 'Older form of `cursor`: the `next_before_id` of the previous page', examples: [120] }),
  ),
  ...PageQuery,
})

export const LeadPage = t.Object(
  {
    leads: t.Array(LeadView, { description: 'Newest first' }),
    next_before_id: Nullable(
      t.Integer({ description: 'Older form of `next_cursor`: pass as `before_id` for the next page; null on the last' }),
    ),
    next_cursor: NextCursor,
  },
  { additionalProperties: false, examples: [{ leads: [EXAMPLE], next_before_id: null, next_cursor: null }] },
)

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

async function findLead(db: Executor, id: number) {
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

/** Takes an unclaimed lead; 409 when anyone holds it (taking over means release, then claim). */
export function claimLead(db: Db, caller: Caller, id: number) {
  const me = caller.person!
  return write(db, async (trx) => {
    const taken = await trx
      .updateTable('leads')
      .set({ claimed_by: me.id, claimed_at: nowIso() })
      .where('id', '=', id)
      .where('claimed_by', 'is', null)
      .executeTakeFirst()
    const lead = await findLead(trx, id)
    if (!Number(taken.numUpdatedRows))
      throw lead.claimed_by?.id === me.id
        ? conflict('You already hold this lead', 'already_claimed')
        : conflict(`${lead.claimed_by?.email} holds this lead; they can release it`, 'claimed_by_other')
    await record(trx, caller.actor, 'leads.claim', `Claimed the lead from ${lead.parent_name}`)
    return { lead }
  })
}

/** The holder, or someone with people:manage, lets a lead go; 403 for anyone else, 409 when nobody holds it. */
export function releaseLead(db: Db, caller: Caller, id: number) {
  return write(db, async (trx) => {
    const lead = await findLead(trx, id)
    if (!lead.claimed_by) throw conflict('Nobody holds this lead')
    const holder = lead.claimed_by.id === caller.person!.id
    if (!holder && !caller.capabilities.has('people:manage'))
      throw forbidden(`${lead.claimed_by.email} holds this lead; only they or an owner can release it`)
    await trx.updateTable('leads').set({ claimed_by: null, claimed_at: null }).where('id', '=', id).execute()
    await record(
      trx,
      caller.actor,
      'leads.release',
      `Released the lead from ${lead.parent_name}${holder ? '' : ` (${lead.claimed_by.email} held it)`}`,
    )
    return { lead: { ...lead, claimed_by: null, claimed_at: null } }
  })
}
