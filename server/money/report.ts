// The treasurer's report for a period: totals by kind, by event and by payment method, and each account's opening and
// closing balance; and the period's entries as a CSV that opens in a spreadsheet with accents intact.
import { sql } from 'kysely'
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { csvDocument } from '../csv.ts'
import { unprocessable } from '../errors.ts'
import { programYear } from '../roster/queries.ts'
import { getSetting, today } from '../settings/registry.ts'
import { scoutName } from '../words.ts'
import { listAccounts, signedCents, unitsInScope } from './queries.ts'
import type { ReportQuery } from './schemas.ts'
import { ENTRY_KINDS } from './tables.ts'

/** An entry's amount with its reversals taken off: a reversal counts against the kind it undoes. */
const netCents = sql<number>`(case when reverses_id is null then 1 else -1 end) * amount_cents`

/** The period asked for: from the start of this program year to today unless given; 422 when it runs backwards. */
async function periodOf(db: Executor, query: typeof ReportQuery.static) {
  const { year } = await programYear(db)
  const month = String(await getSetting(db, 'roster.year_start_month')).padStart(2, '0')
  const from = query.from ?? `${year}-${month}-01`
  const to = query.to ?? (await today(db))
  if (from > to) throw unprocessable(`from: the period starts (${from}) after it ends (${to})`, undefined, 'from')
  return { from, to }
}

/** The households (with a scout in the units asked about) the report covers, as their ids. */
async function householdsInScope(db: Executor, units: number[] | null) {
  let q = db.selectFrom('scouts').select('household_id').distinct()
  if (units) q = q.where('unit_id', 'in', units.length ? units : [0])
  return (await q.execute()).map((r) => r.household_id)
}

export async function moneyReport(db: Executor, caller: Caller, query: typeof ReportQuery.static) {
  const { from, to } = await periodOf(db, query)
  const units = await unitsInScope(db, caller, query.unit)
  const households = await householdsInScope(db, units)
  const ids = households.length ? households : [0]
  const inPeriod = db
    .selectFrom('money_entries as e')
    .where('e.household_id', 'in', ids)
    .where('e.date', '>=', from)
    .where('e.date', '<=', to)
  const kinds = await inPeriod
    .select(['kind', sql<number>`sum(${netCents})`.as('cents')])
    .groupBy('kind')
    .execute()
  const by_kind = Object.fromEntries(ENTRY_KINDS.map((k) => [k, Number(kinds.find((r) => r.kind === k)?.cents ?? 0)])) as Record<
    (typeof ENTRY_KINDS)[number],
    number
  >
  const events = await inPeriod
    .leftJoin('rsvp_events', 'rsvp_events.uid', 'e.event_uid')
    .select([
      'e.event_uid',
      'rsvp_events.title',
      sql<number>`sum(case when kind = 'charge' then ${netCents} else 0 end)`.as('charge_cents'),
      sql<number>`sum(case when kind = 'payment' then ${netCents} else 0 end)`.as('payment_cents'),
    ])
    .where('e.event_uid', 'is not', null)
    .groupBy('e.event_uid')
    .orderBy('e.event_uid')
    .execute()
  const methods = await inPeriod
    .select([
      'e.method',
      sql<number>`sum(case when kind = 'payment' then ${netCents} else 0 end)`.as('payment_cents'),
      sql<number>`sum(case when kind = 'refund' then ${netCents} else 0 end)`.as('refund_cents'),
    ])
    .where('e.kind', 'in', ['payment', 'refund'])
    .groupBy('e.method')
    .orderBy('e.method')
    .execute()
  // Opening: every entry dated before the period; closing: every entry up to its end.
  const balances = await db
    .selectFrom('money_entries')
    .select([
      'household_id',
      'scout_id',
      sql<number>`sum(case when date < ${from} then ${signedCents} else 0 end)`.as('opening'),
      sql<number>`sum(case when date <= ${to} then ${signedCents} else 0 end)`.as('closing'),
    ])
    .where('household_id', 'in', ids)
    .groupBy(['household_id', 'scout_id'])
    .execute()
  const { accounts: listed } = await listAccounts(db, caller, { unit: query.unit })
  const accounts = listed.map(({ unit: _, balance_cents: __, ...account }) => {
    const rows = balances.filter(
      (b) => b.household_id === account.household_id && ('scout_id' in account ? b.scout_id === account.scout_id : true),
    )
    return {
      ...account,
      opening_cents: rows.reduce((n, r) => n + Number(r.opening), 0),
      closing_cents: rows.reduce((n, r) => n + Number(r.closing), 0),
    }
  })
  const householdRows = accounts.filter((a) => !('scout_id' in a))
  return {
    unit: query.unit ?? null,
    from,
    to,
    by_kind,
    by_event: events.map((e) => ({
      event_uid: e.event_uid!,
      title: e.title,
      charge_cents: Number(e.charge_cents),
      payment_cents: Number(e.payment_cents),
    })),
    by_method: methods.map((m) => ({ method: m.method, payment_cents: Number(m.payment_cents), refund_cents: Number(m.refund_cents) })),
    accounts,
    totals: {
      opening_cents: householdRows.reduce((n, a) => n + a.opening_cents, 0),
      closing_cents: householdRows.reduce((n, a) => n + a.closing_cents, 0),
    },
  }
}

/** The period's entries as CSV, oldest first, amounts in dollars; it starts with a byte-order mark for spreadsheets. */
export async function reportCsv(db: Executor, caller: Caller, query: typeof ReportQuery.static) {
  const { from, to } = await periodOf(db, query)
  const households = await householdsInScope(db, await unitsInScope(db, caller, query.unit))
  const rows = await db
    .selectFrom('money_entries as e')
    .innerJoin('households as h', 'h.id', 'e.household_id')
    .leftJoin('scouts as s', 's.id', 'e.scout_id')
    .leftJoin('rsvp_events as ev', 'ev.uid', 'e.event_uid')
    .select([
      'e.id',
      'e.date',
      'h.parent_name',
      'h.payment_reference',
      's.first_name',
      's.preferred_name',
      's.last_name',
      'e.kind',
      'e.amount_cents',
      'e.reverses_id',
      'e.memo',
      'ev.title',
      'e.event_uid',
      'e.method',
      'e.reference',
      'e.created_by',
    ])
    .where('e.household_id', 'in', households.length ? households : [0])
    .where('e.date', '>=', from)
    .where('e.date', '<=', to)
    .orderBy('e.date')
    .orderBy('e.id')
    .execute()
  const header = [
    'entry',
    'date',
    'household',
    'payment_reference',
    'scout',
    'kind',
    'amount',
    'reverses_entry',
    'memo',
    'event',
    'method',
    'reference',
    'written_by',
  ]
  const lines = rows.map((r) => [
    r.id,
    r.date,
    r.parent_name,
    r.payment_reference,
    r.first_name ? scoutName({ first_name: r.first_name, preferred_name: r.preferred_name, last_name: r.last_name }) : '',
    r.kind,
    ((r.reverses_id === null ? 1 : -1) * r.amount_cents) / 100,
    r.reverses_id ?? '',
    r.memo,
    r.title ?? r.event_uid ?? '',
    r.method ?? '',
    r.reference ?? '',
    r.created_by,
  ])
  return { filename: `money-${query.unit ?? 'all'}-${from}-to-${to}.csv`, csv: `\uFEFF${csvDocument(header, lines)}` }
}
