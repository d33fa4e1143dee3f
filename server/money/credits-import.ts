// Fundraiser credits from a file (popcorn or wreath sales): a CSV naming each scout by member id or name, an amount
// and a memo, previewed first (nothing written, kept an hour), then applied as credit entries in one transaction with
// one action-log entry. A line the ledger already holds (the same scout, amount and memo) is skipped, so a file
// applied twice credits nobody twice.
import { randomBytes } from 'node:crypto'
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, type Trx, write } from '../db/write.ts'
import { conflict, gone, notFound, unprocessable } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { today } from '../settings/registry.ts'
import { dollars, plural, scoutName } from '../words.ts'
import { readCsvRecords } from '../csv.ts'
import { insertEntry } from './commands.ts'
import { settleDues } from './dues-checks.ts'
import { unitsInScope } from './queries.ts'

export const CREDIT_PREVIEW_MINUTES = 60
const MAX_LINES = 5000
const DEFAULT_MEMO = 'Fundraiser credit'

type Field = 'member_id' | 'first_name' | 'last_name' | 'scout' | 'amount' | 'memo'
const SYNONYMS: Record<string, Field> = Object.fromEntries(
  (
    [
      ['member_id', ['memberid', 'orgmemberid', 'bsaid', 'bsanumber', 'bsamemberid', 'membernumber']],
      ['first_name', ['firstname', 'scoutfirstname', 'first', 'youthfirstname']],
      ['last_name', ['lastname', 'scoutlastname', 'last', 'youthlastname']],
      ['scout', ['scout', 'scoutname', 'name', 'youth', 'youthname', 'seller']],
      ['amount', ['amount', 'credit', 'credits', 'sales', 'total', 'scoutcredit', 'commission', 'amountearned', 'earned']],
      ['memo', ['memo', 'note', 'notes', 'description', 'fundraiser', 'for']],
    ] as [Field, string[]][]
  ).flatMap(([field, names]) => names.map((n) => [n, field])),
)
const norm = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '')
/** A name as compared: accents, case and spacing ignored. */
const nameKey = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()

interface CreditLine {
  line: number
  member_id: string
  name: string
  amount: string
  memo: string
}

/** The lines of a credits file; 422 when it is not CSV or names no amount column and no scout column. */
function readCredits(text: string): CreditLine[] {
  const records = readCsvRecords(text)
  const [head, ...rows] = records
  const columns = new Map<Field, number>()
  head?.record.forEach((h, i) => {
    const field = SYNONYMS[norm(h)]
    if (field && !columns.has(field)) columns.set(field, i)
  })
  const named = columns.has('member_id') || columns.has('scout') || columns.has('first_name')
  if (!columns.has('amount') || !named)
    throw unprocessable(
      'csv: no header row naming the scout (Member ID, or Scout / First Name and Last Name) and the Amount',
      'no_header',
      'csv',
    )
  if (rows.length > MAX_LINES) throw unprocessable(`csv: more than ${MAX_LINES} lines in one file; split it`, 'too_many_rows', 'csv')
  const cell = (record: string[], field: Field) =>
    columns.has(field) ? (record[columns.get(field)!] ?? '').replace(/\s+/g, ' ').trim() : ''
  return rows.map(({ record, info }) => ({
    line: info.lines,
    member_id: cell(record, 'member_id'),
    name: cell(record, 'scout') || [cell(record, 'first_name'), cell(record, 'last_name')].filter(Boolean).join(' '),
    amount: cell(record, 'amount'),
    memo: cell(record, 'memo').slice(0, 200),
  }))
}

/** "$1,234.50" → 123450; null for anything that is not an amount above zero with at most two decimals. */
function centsOf(amount: string): number | null {
  const plain = amount.replace(/[$,\s]/g, '')
  if (!/^\d+(\.\d{1,2})?$/.test(plain)) return null
  const cents = Math.round(Number(plain) * 100)
  return cents > 0 && cents <= 100_000_000 ? cents : null
}

/** Each line matched to a scout in the units the importer keeps the money of, or the reason it cannot be. */
async function planCredits(db: Executor, lines: CreditLine[], units: number[] | null) {
  let q = db
    .selectFrom('scouts')
    .innerJoin('households', 'households.id', 'scouts.household_id')
    .select(['scouts.id', 'scouts.household_id', 'scouts.first_name', 'scouts.preferred_name', 'scouts.last_name', 'scouts.org_member_id'])
  if (units) q = q.where('scouts.unit_id', 'in', units.length ? units : [0])
  const scouts = await q.execute()
  const byId = new Map(scouts.filter((s) => s.org_member_id).map((s) => [s.org_member_id!, s]))
  const byName = new Map<string, typeof scouts>()
  for (const s of scouts)
    for (const key of new Set([
      nameKey(`${s.first_name} ${s.last_name ?? ''}`),
      ...(s.preferred_name ? [nameKey(`${s.preferred_name} ${s.last_name ?? ''}`)] : []),
    ]))
      byName.set(key, [...(byName.get(key) ?? []), s])
  const held = await db
    .selectFrom('money_entries as e')
    .select(['e.scout_id', 'e.amount_cents', 'e.memo'])
    .where('e.kind', '=', 'credit')
    .where('e.reverses_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('money_entries as undo').select('undo.id').whereRef('undo.reverses_id', '=', 'e.id'))),
    )
    .execute()
  const already = new Set(held.map((h) => `${h.scout_id} ${h.amount_cents} ${h.memo}`))
  const credits = []
  const bad_rows = []
  for (const line of lines) {
    const cents = centsOf(line.amount)
    if (cents === null) {
      bad_rows.push({ line: line.line, reason: `amount: "${line.amount}" is not an amount above zero (like 12.50)` })
      continue
    }
    const matches = line.member_id && byId.has(line.member_id) ? [byId.get(line.member_id)!] : (byName.get(nameKey(line.name)) ?? [])
    if (matches.length !== 1) {
      const who = line.name || `member id ${line.member_id}`
      bad_rows.push({
        line: line.line,
        reason: matches.length
          ? `${who}: ${matches.length} scouts have this name; give the member id`
          : `${who}: no such scout in your units`,
      })
      continue
    }
    const scout = matches[0]
    const memo = line.memo || DEFAULT_MEMO
    const key = `${scout.id} ${cents} ${memo}`
    if (already.has(key)) {
      bad_rows.push({
        line: line.line,
        reason: `${scoutName(scout)} already has this credit (${dollars(cents)}, ${memo}); not credited again`,
      })
      continue
    }
    credits.push({
      line: line.line,
      scout_id: scout.id,
      household_id: scout.household_id,
      name: scoutName(scout),
      amount_cents: cents,
      memo,
    })
  }
  return { credits, bad_rows }
}

const publicCredit = ({ household_id: _, ...credit }: Awaited<ReturnType<typeof planCredits>>['credits'][number]) => credit

/** Reads the file and says what applying it would credit; kept an hour under a random id. Nothing is written to the ledger. */
export async function previewCredits(db: Db, caller: Caller, csv: string, unit?: string) {
  const units = await unitsInScope(db, caller, unit)
  const lines = readCredits(csv)
  const plan = await planCredits(db, lines, units)
  const id = randomBytes(16).toString('base64url')
  const now = new Date()
  const expires_at = new Date(now.getTime() + CREDIT_PREVIEW_MINUTES * 60_000).toISOString()
  const unitId = unit ? units![0] : null
  // A preview is not a change to the ledger: it is stored without an action-log entry, like the roster's.
  await db
    .insertInto('money_imports')
    .values({
      id,
      person_id: caller.person?.id ?? null,
      actor: caller.actor,
      unit_id: unitId,
      lines: JSON.stringify(lines),
      created_at: now.toISOString(),
      expires_at,
    })
    .execute()
  return {
    id,
    expires_at,
    credits: plan.credits.map(publicCredit),
    bad_rows: plan.bad_rows,
    total_cents: plan.credits.reduce((n, c) => n + c.amount_cents, 0),
  }
}

/** Applies a preview: 404 for none (or another person's), 410 `import_expired` after an hour, 409 `import_applied` twice. */
export async function applyCredits(db: Db, caller: Caller, id: string) {
  return write(db, async (trx: Trx) => {
    const preview = await trx.selectFrom('money_imports').selectAll().where('id', '=', id).executeTakeFirst()
    if (!preview || preview.person_id !== (caller.person?.id ?? null)) throw notFound('No such credits preview')
    if (preview.applied_at) throw conflict('These credits were applied already; preview the file again to apply it again', 'import_applied')
    if (preview.expires_at <= nowIso()) throw gone('This preview is more than an hour old; preview the file again', 'import_expired')
    await trx.updateTable('money_imports').set({ applied_at: nowIso() }).where('id', '=', id).execute()
    const unit =
      preview.unit_id === null
        ? undefined
        : (await trx.selectFrom('units').select('slug').where('id', '=', preview.unit_id).executeTakeFirstOrThrow()).slug
    const plan = await planCredits(trx, JSON.parse(preview.lines) as CreditLine[], await unitsInScope(trx, caller, unit))
    const date = await today(trx)
    for (const c of plan.credits)
      await insertEntry(trx, caller.actor, {
        household_id: c.household_id,
        scout_id: c.scout_id,
        kind: 'credit',
        amount_cents: c.amount_cents,
        date,
        memo: c.memo,
      })
    let settled = ''
    for (const household of new Set(plan.credits.map((c) => c.household_id))) settled += await settleDues(trx, caller.actor, household)
    const total = plan.credits.reduce((n, c) => n + c.amount_cents, 0)
    await record(
      trx,
      caller.actor,
      'money.credits_import',
      `Credited ${dollars(total)} to ${plural(plan.credits.length, 'scout')} from a file (${plural(plan.bad_rows.length, 'line')} skipped)${settled}`,
    )
    return { created: plan.credits.length, skipped: plan.bad_rows.length, total_cents: total }
  })
}
