// Roster reads: the program year, households with their accounts, scouts and this year's checklist, the
// roster by unit (its CSV export is export.ts).
import { type ExpressionBuilder, sql } from 'kysely'
import { groupBy } from '../group-by.ts'
import type { Database, Executor } from '../db/database.ts'
import type { CheckItem, Scout } from './tables.ts'
import { addDays } from '../calendar/zone.ts'
import { notFound } from '../errors.ts'
import { decodeCursor, encodeCursor, notOurCursor, PAGE, pageOf } from '../http/paging.ts'
import { t } from '../schemas.ts'
import { getSetting, today } from '../settings/registry.ts'
import { healthFormOn } from './health-form.ts'
import { findUnit } from '../units/units.ts'
import { scoutsSeenSince } from '../attendance/facts.ts'

/** The program year now, by the calendar year it starts in (setting roster.year_start_month, site time zone). */
export async function programYear(db: Executor, now = new Date()): Promise<{ year: number; label: string }> {
  const startMonth = await getSetting(db, 'roster.year_start_month')
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: await getSetting(db, 'site.timezone'),
    year: 'numeric',
    month: 'numeric',
  }).formatToParts(now)
  const y = Number(parts.find((p) => p.type === 'year')!.value)
  const m = Number(parts.find((p) => p.type === 'month')!.value)
  const year = m >= startMonth ? y : y - 1
  return { year, label: startMonth === 1 ? String(year) : `${year}–${String(year + 1).slice(-2)}` }
}

/**
 * Ids for an `in`, as one JSON parameter: a list of 30,000 households would pass SQLite's limit on
 * parameters if each id were one.
 */
const idList = (ids: number[]) => sql<number>`(select value from json_each(${JSON.stringify(ids)}))`

/** A scout as answers show it: photo consent as a boolean. */
export function scoutRow<S extends Scout>({ photo_consent, ...row }: S) {
  return { ...row, photo_consent: photo_consent === 1 }
}

/** Households by id, in the order given, with linked accounts, scouts and the checklist of `year`. */
export async function householdsView(db: Executor, ids: number[], year: number) {
  if (!ids.length) return []
  const households = await db.selectFrom('households').selectAll().where('id', 'in', idList(ids)).execute()
  const people = await db
    .selectFrom('household_people')
    .innerJoin('people', 'people.id', 'household_people.person_id')
    .select(['household_people.household_id', 'people.id', 'people.email', 'people.name'])
    .where('household_people.household_id', 'in', idList(ids))
    .execute()
  // Each household's few scouts are put in order and given their unit here: sorting and joining in SQL cost more.
  const units = new Map((await db.selectFrom('units').select(['id', 'slug', 'name']).execute()).map((u) => [u.id, u]))
  const scouts = (await db.selectFrom('scouts').selectAll().where('household_id', 'in', idList(ids)).execute()).map((sc) => ({
    ...sc,
    unit_slug: units.get(sc.unit_id)!.slug,
    unit_name: units.get(sc.unit_id)!.name,
  }))
  const checks = scouts.length
    ? await db
        .selectFrom('checks')
        .selectAll()
        .where('year', '=', year)
        .where('scout_id', 'in', idList(scouts.map((s) => s.id)))
        .execute()
    : []
  const checksOf = groupBy(checks, (c) => `${c.scout_id} ${c.item}`)
  const checkOf = (scoutId: number, item: CheckItem) => {
    const c = checksOf.get(`${scoutId} ${item}`)?.[0]
    return c
      ? { done: c.done === 1, note: c.note, recorded_by: c.recorded_by, recorded_at: c.recorded_at }
      : { done: false, note: null, recorded_by: null, recorded_at: null }
  }
  const forms = await healthForms(
    db,
    scouts.map((s) => s.id),
    await today(db),
    year,
  )
  const healthFormOf = (scoutId: number) => ({ ...checkOf(scoutId, 'health_form'), ...forms.get(scoutId)! })
  const peopleOf = groupBy(people, (p) => p.household_id)
  const scoutsOf = groupBy(scouts, (sc) => sc.household_id)
  for (const group of scoutsOf.values()) group.sort((a, b) => (a.first_name < b.first_name ? -1 : a.first_name > b.first_name ? 1 : 0))
  const byId = new Map(households.map((h) => [h.id, h]))
  return ids
    .map((id) => byId.get(id))
    .filter((h) => h !== undefined)
    .map(({ created_by_person_id, ...h }) => ({
      ...h,
      active: h.active === 1,
      people: (peopleOf.get(h.id) ?? []).map(({ household_id, ...p }) => p),
      scouts: (scoutsOf.get(h.id) ?? []).map((sc) => ({
        ...scoutRow(sc),
        checks: { dues: checkOf(sc.id, 'dues'), health_form: healthFormOf(sc.id) },
      })),
    }))
}

/**
 * How each scout's health form stands on `day`: the newest dated form handed in, in any program year, counts for 12
 * months from its date; one ticked in program year `year` without a date (before dates were kept, or none given) counts too.
 */
export async function healthForms(db: Executor, scoutIds: number[], day: string, year: number) {
  const out = new Map<number, ReturnType<typeof healthFormOn>>()
  if (!scoutIds.length) return out
  const handedIn = await formsHandedIn(db, year, scoutIds)
  for (const id of scoutIds) out.set(id, formStanding(handedIn.get(id), day))
  return out
}

type HandedIn = { form_date: string | null; undated_this_year: number }

/** The forms handed in, by scout: of these scouts, or of every scout (one pass, for the whole roster). */
async function formsHandedIn(db: Executor, year: number, scoutIds?: number[]): Promise<Map<number, HandedIn>> {
  const rows = await db
    .selectFrom('checks')
    .select([
      'scout_id',
      (eb) => eb.fn.max('form_date').as('form_date'),
      sql<number>`max("year" = ${year} and "form_date" is null)`.as('undated_this_year'),
    ])
    .where('item', '=', 'health_form')
    .where('done', '=', 1)
    .$if(!!scoutIds, (q) => q.where('scout_id', 'in', idList(scoutIds!)))
    .groupBy('scout_id')
    .execute()
  return new Map(rows.map((r) => [r.scout_id, r]))
}

/** How a scout's health form stands on `day`, from the forms they handed in (healthForms). */
function formStanding(form: HandedIn | undefined, day: string) {
  const dated = healthFormOn(form?.form_date ?? null, day)
  return { ...dated, current: dated.current || form?.undated_this_year === 1 }
}

/** One household as the roster lists it: with this program year's checklist and its open invites; 404 when there is none. */
export async function householdById(db: Executor, id: number) {
  const [household] = await householdsView(db, [id], (await programYear(db)).year)
  if (!household) throw notFound('No such household')
  return { ...household, invites: (await openInvites(db, [id])).map(withoutHousehold) }
}

/** One scout as its household shows it, with this program year's checks; 404 when there is none. */
export async function scoutById(db: Executor, id: number) {
  const scout = await db.selectFrom('scouts').select('household_id').where('id', '=', id).executeTakeFirst()
  if (!scout) throw notFound('No such scout')
  const [household] = await householdsView(db, [scout.household_id], (await programYear(db)).year)
  return household.scouts.find((sc) => sc.id === id)!
}

export interface RosterFilters {
  /** One unit, by slug or id: its households, each with only its scouts in that unit. */
  unit?: string
  /** Words every one of which is in the household's names, email or phone. */
  q?: string
  /** Scouts in this den or patrol (its exact name). */
  den?: string
  /** Scouts whose dues for this program year are not done. */
  dues?: 'unpaid'
  /** Scouts whose health form is not current, or runs out within HEALTH_FORM_WARNING_DAYS. */
  health?: 'missing'
  /** Scouts who came to no event dated in the last this many weeks (today included). */
  inactive_weeks?: number
}

/** A health form running out within this many days counts as missing on the roster's filter. */
export const HEALTH_FORM_WARNING_DAYS = 30

/** Text as the roster search compares it: lower case, without accents ("Zoë" → "zoe"). */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
const digitsOf = (text: string) => text.replace(/\D/g, '')
const SUFFIX = /^(jr|sr|ii|iii|iv)\.?$/i

/** The parent's last name: the last word of their name, past a suffix ("Ray Ortiz Jr." → "Ortiz"). */
export function lastName(parentName: string): string {
  const words = parentName.trim().split(/\s+/)
  while (words.length > 1 && SUFFIX.test(words.at(-1)!)) words.pop()
  return words.at(-1) ?? ''
}

/** What the roster sorts a household by: the sort name a leader set, else the parent's last name. */
export const sortNameOf = (h: { sort_name: string | null; parent_name: string }) => h.sort_name?.trim() || lastName(h.parent_name)

const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare

/** Where a household stands in the roster: active first, then sort name, parent name and id. */
type Place = [active: number, sortName: string, parentName: string, id: number]
const placeOf = (h: { active: number; sort_name: string | null; parent_name: string; id: number }): Place => [
  h.active,
  sortNameOf(h),
  h.parent_name,
  h.id,
]
/** A roster cursor holds the last household's id alone (no names in addresses and logs); its place is looked up. */
const Position = t.Tuple([t.Integer()])

async function placeAfter(db: Executor, filters: RosterFilters & { cursor?: string }): Promise<Place | undefined> {
  if (!filters.cursor) return undefined
  const [id] = decodeCursor('roster', { ...filters }, filters.cursor, Position)
  const last = await db
    .selectFrom('households')
    .select(['id', 'active', 'sort_name', 'parent_name'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!last) throw notOurCursor()
  return placeOf(last)
}
const byPlace = (a: Place, b: Place) => b[0] - a[0] || byName(a[1], b[1]) || byName(a[2], b[2]) || a[3] - b[3]

/** Whether a household holds every word of a search: in its names and email, or (digits alone) its phone. */
function matcher(q: string) {
  const words = folded(q).split(/\s+/).filter(Boolean)
  const digits = digitsOf(q)
  const phoneLike = digits.length >= 3 && /^[\d\s+().-]+$/.test(q)
  return (household: { phone: string | null }, texts: (string | null)[]) => {
    if (phoneLike && household.phone && digitsOf(household.phone).includes(digits)) return true
    const haystack = folded(texts.filter(Boolean).join(' '))
    return words.every((w) => haystack.includes(w))
  }
}

/**
 * The roster, or part of it: `unit` (404 for an unknown one), `den`, `dues`, `health` and `inactive_weeks` keep the
 * households with a scout that matches them all, each with only those scouts; `q` keeps the households it finds. Active households
 * first, then by sort name (see sortNameOf), then parent name and id; with the open invites of each, and counts of
 * all that was found. Every household without `limit` or `cursor`, one page with either. Dues and health forms count
 * only for active households: a family that left owes nothing.
 */
export async function roster(db: Executor, filters: RosterFilters & { limit?: number; cursor?: string } = {}) {
  const after = await placeAfter(db, filters)
  const unit = filters.unit ? await findUnit(db, filters.unit) : null
  if (filters.unit && !unit) throw notFound(`No unit ${filters.unit}`)
  const den = filters.den?.trim() || null
  const withScout = (eb: ExpressionBuilder<Database, 'households'>) =>
    eb.exists(
      eb
        .selectFrom('scouts')
        .select('scouts.id')
        .whereRef('scouts.household_id', '=', 'households.id')
        .$if(!!unit, (q) => q.where('scouts.unit_id', '=', unit!.id))
        .$if(!!den, (q) => q.where('scouts.den', '=', den!)),
    )
  let rows = await db
    .selectFrom('households')
    .select(['id', 'parent_name', 'second_parent', 'second_email', 'email', 'phone', 'sort_name', 'active'])
    .$if(!!unit || !!den, (q) => q.where(withScout))
    .execute()
  const q = filters.q?.trim()
  if (q) {
    const names = groupBy(
      await db.selectFrom('scouts').select(['household_id', 'first_name', 'last_name', 'preferred_name']).execute(),
      (sc) => sc.household_id,
    )
    const matches = matcher(q)
    rows = rows.filter((h) =>
      matches(h, [
        h.parent_name,
        h.second_parent,
        h.email,
        h.second_email,
        h.sort_name,
        ...(names.get(h.id) ?? []).flatMap((sc) => [sc.first_name, sc.last_name, sc.preferred_name]),
      ]),
    )
  }
  const places = new Map(rows.map((r) => [r.id, placeOf(r)]))
  rows.sort((a, b) => byPlace(places.get(a.id)!, places.get(b.id)!))
  const year = await programYear(db)
  const day = await today(db)
  const soon = addDays(day, HEALTH_FORM_WARNING_DAYS)
  const healthMissing = (form: { current: boolean; expires_on: string | null }) =>
    !form.current || (form.expires_on !== null && form.expires_on <= soon)
  const weeks = filters.inactive_weeks
  const seen = weeks ? await scoutsSeenSince(db, addDays(day, 1 - 7 * weeks)) : null
  const byScout = !!unit || !!den || !!filters.dues || !!filters.health || !!seen
  // The filters and counts read a few facts of every scout; the full view is built only for the households answered.
  const scoutsOf = groupBy(await scoutStanding(db, year.year, day), (sc) => sc.household_id)
  const found = rows
    .map((h) => ({
      id: h.id,
      active: h.active === 1,
      scouts: (scoutsOf.get(h.id) ?? []).filter(
        (sc) =>
          (!unit || sc.unit_id === unit.id) &&
          (!den || sc.den === den) &&
          (!filters.dues || (h.active === 1 && !sc.dues_done)) &&
          (!filters.health || (h.active === 1 && healthMissing(sc.health_form))) &&
          (!seen || (h.active === 1 && !seen.has(sc.id))),
      ),
    }))
    .filter((h) => !byScout || h.scouts.length)
  // A page starts after the cursor's place, not at an offset, so households added or removed meanwhile neither
  // repeat nor skip one.
  const paged = filters.limit !== undefined || after !== undefined
  const from = after ? found.filter((h) => byPlace(places.get(h.id)!, after) > 0) : found
  const page = paged ? pageOf(from, filters.limit ?? PAGE.default) : { rows: found, more: false }
  const last = page.more ? page.rows.at(-1) : undefined
  const answered = page.rows.map((h) => h.id)
  const shownScouts = new Set(page.rows.flatMap((h) => h.scouts.map((sc) => sc.id)))
  const invites = groupBy(await openInvites(db, answered), (i) => i.household_id)
  const households = (await householdsView(db, answered, year.year)).map((h) => ({
    ...h,
    scouts: h.scouts.filter((sc) => shownScouts.has(sc.id)),
    invites: (invites.get(h.id) ?? []).map(withoutHousehold),
  }))
  const counted = found.filter((h) => h.active).flatMap((h) => h.scouts)
  const counts = {
    households: found.length,
    scouts: found.reduce((n, h) => n + h.scouts.length, 0),
    dues_unpaid: counted.filter((sc) => !sc.dues_done).length,
    health_missing: counted.filter((sc) => healthMissing(sc.health_form)).length,
  }
  const denUnits = await db
    .selectFrom('scouts')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .select(['scouts.den', 'units.id as unit_id', 'units.slug as unit_slug', (eb) => eb.fn.countAll<number>().as('scouts')])
    .where('scouts.den', 'is not', null)
    .groupBy(['units.id', 'scouts.den'])
    .orderBy('units.id')
    .orderBy('scouts.den')
    .execute()
  const units = await db.selectFrom('units').select(['id', 'slug', 'name']).orderBy('id').execute()
  return {
    unit: unit ?? null,
    units,
    year,
    households,
    counts,
    next_cursor: last ? encodeCursor('roster', { ...filters }, [last.id]) : null,
    dens: [...new Set(denUnits.filter((d) => !unit || d.unit_id === unit.id).map((d) => d.den!))].sort(),
    den_units: denUnits.map((d) => ({ ...d, den: d.den!, scouts: Number(d.scouts) })),
  }
}

/** What the roster's filters and counts read of every scout: household, unit, den, this year's dues, its health form on `day`. */
async function scoutStanding(db: Executor, year: number, day: string) {
  const scouts = await db.selectFrom('scouts').select(['id', 'household_id', 'unit_id', 'den']).execute()
  const paid = await db
    .selectFrom('checks')
    .select('scout_id')
    .where('year', '=', year)
    .where('item', '=', 'dues')
    .where('done', '=', 1)
    .execute()
  const duesDone = new Set(paid.map((c) => c.scout_id))
  const forms = await formsHandedIn(db, year)
  return scouts.map((sc) => ({ ...sc, dues_done: duesDone.has(sc.id), health_form: formStanding(forms.get(sc.id), day) }))
}

/** An open invite as its household shows it. */
const withoutHousehold = ({ household_id, ...invite }: Awaited<ReturnType<typeof openInvites>>[number]) => invite

/** The open invites (not used, revoked or expired) that link their account to one of these households. */
async function openInvites(db: Executor, householdIds: number[]) {
  if (!householdIds.length) return []
  const rows = await db
    .selectFrom('invites')
    .select(['id', 'email', 'household_id', 'invited_by', 'created_at', 'expires_at'])
    .where('household_id', 'in', idList(householdIds))
    .where('revoked_at', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date().toISOString())
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ ...r, household_id: r.household_id! }))
}
