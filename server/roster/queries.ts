// Roster reads: the program year, households with their accounts, scouts and this year's checklist, the
// roster by unit, a family's own view, and the CSV export.
import { familyRsvps } from '../calendar/rsvp.ts'
import { ownHouseholdIds } from './own-households.ts'
import { householdLeaders } from './household-leaders.ts'
import { sql } from 'kysely'
import { groupBy } from '../group-by.ts'
import type { Caller } from '../auth/credential.ts'
import type { CheckItem, Executor, Scout } from '../db/database.ts'
import { csvDocument } from '../csv.ts'
import { notFound } from '../errors.ts'
import { getSetting, today } from '../settings/registry.ts'
import { healthFormOn } from './health-form.ts'
import { findUnit } from '../units/units.ts'

/** The program year now, by the calendar year it starts in (setting roster.year_start_month, site time zone). */
export async function programYear(db: Executor, now = new Date()): Promise<{ year: number; label: string }> {
  const startMonth: number = await getSetting(db, 'roster.year_start_month')
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
  const scouts = await db
    .selectFrom('scouts')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .selectAll('scouts')
    .select(['units.slug as unit_slug', 'units.name as unit_name'])
    .where('scouts.household_id', 'in', idList(ids))
    .orderBy('scouts.first_name')
    .execute()
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
  const rows = await db
    .selectFrom('checks')
    .select([
      'scout_id',
      (eb) => eb.fn.max('form_date').as('form_date'),
      sql<number>`max("year" = ${year} and "form_date" is null)`.as('undated_this_year'),
    ])
    .where('item', '=', 'health_form')
    .where('done', '=', 1)
    .where('scout_id', 'in', idList(scoutIds))
    .groupBy('scout_id')
    .execute()
  const handedIn = new Map(rows.map((r) => [r.scout_id, r]))
  for (const id of scoutIds) {
    const form = handedIn.get(id)
    const dated = healthFormOn(form?.form_date ?? null, day)
    out.set(id, { ...dated, current: dated.current || form?.undated_this_year === 1 })
  }
  return out
}

/** One household as householdsView shows it, with this program year's checklist; 404 when there is none. */
export async function householdById(db: Executor, id: number) {
  const [household] = await householdsView(db, [id], (await programYear(db)).year)
  if (!household) throw notFound('No such household')
  return household
}

/** The roster, or one unit's part of it (its households, and only their scouts in that unit); 404 for an unknown unit. */
export async function roster(db: Executor, unitSlugOrId: string | undefined) {
  const unit = unitSlugOrId ? await findUnit(db, unitSlugOrId) : null
  if (unitSlugOrId && !unit) throw notFound(`No unit ${unitSlugOrId}`)
  const ids = (
    await db
      .selectFrom('households')
      .select('households.id')
      .$if(!!unit, (q) =>
        q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('scouts')
              .select('scouts.id')
              .whereRef('scouts.household_id', '=', 'households.id')
              .where('scouts.unit_id', '=', unit!.id),
          ),
        ),
      )
      .orderBy('households.active', 'desc')
      .orderBy('households.parent_name')
      .execute()
  ).map((r) => r.id)
  const year = await programYear(db)
  const households = (await householdsView(db, ids, year.year)).map((h) =>
    unit ? { ...h, scouts: h.scouts.filter((s) => s.unit_id === unit.id) } : h,
  )
  const dens = await db
    .selectFrom('scouts')
    .select('den')
    .distinct()
    .where('den', 'is not', null)
    .$if(!!unit, (q) => q.where('unit_id', '=', unit!.id))
    .orderBy('den')
    .execute()
  const units = await db.selectFrom('units').select(['id', 'slug', 'name']).orderBy('id').execute()
  return { unit: unit ?? null, units, year, households, dens: dens.map((d) => d.den!) }
}

/** A household as its own family sees it: without leaders' notes, the lead it came from or the roster's sort name. */
export const familyView = ({ notes, lead_id, sort_name, ...h }: Awaited<ReturnType<typeof householdsView>>[number]) => h

/** The signed-in person's own active households, and the leaders of their scouts' units. */
export async function family(db: Executor, caller: Caller) {
  const ids = await ownHouseholdIds(db, caller)
  const year = await programYear(db)
  return {
    year,
    households: (await householdsView(db, ids, year.year)).map(familyView),
    events: ids.length ? await familyRsvps(db, ids) : [],
    leaders: await householdLeaders(db, ids),
  }
}

/** The roster as CSV, one line per scout of an active household, with this year's checklist. */
export async function rosterCsv(db: Executor, unitSlugOrId: string | undefined) {
  const { unit, year, households } = await roster(db, unitSlugOrId)
  const rows = households
    .filter((h) => h.active)
    .flatMap((h) =>
      h.scouts.map((s) => [
        s.first_name,
        s.last_name,
        s.unit_slug,
        s.den,
        s.org_member_id,
        h.parent_name,
        h.email,
        h.phone,
        h.second_parent,
        s.checks.dues.done ? 'yes' : 'no',
        s.checks.health_form.done ? 'yes' : 'no',
        s.checks.health_form.expires_on ?? '',
      ]),
    )
  const header = ['first_name', 'last_name', 'unit', 'den', 'org_member_id', 'parent', 'email', 'phone', 'second_parent']
  return {
    filename: `roster-${unit?.slug ?? 'all'}-${year.year}.csv`,
    csv: csvDocument([...header, `dues_${year.year}`, `health_form_${year.year}`, 'health_form_until'], rows),
  }
}
