// Roster reads: the program year, and households with their accounts, scouts and this year's checklist.
import type { Caller } from '../auth/credential.ts'
import { forbidden, notFound } from '../errors.ts'
import type { Executor } from '../history/record.ts'
import { getSetting } from '../settings/registry.ts'

export const CHECK_ITEMS = ['dues', 'health_form'] as const
export type CheckItem = (typeof CHECK_ITEMS)[number]

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

/** Households by id, in the order given, with linked accounts, scouts and the checklist of `year`. */
export async function householdsView(db: Executor, ids: number[], year: number) {
  if (!ids.length) return []
  const households = await db.selectFrom('households').selectAll().where('id', 'in', ids).execute()
  const people = await db
    .selectFrom('household_people')
    .innerJoin('people', 'people.id', 'household_people.person_id')
    .select(['household_people.household_id', 'people.id', 'people.email', 'people.name'])
    .where('household_people.household_id', 'in', ids)
    .execute()
  const scouts = await db
    .selectFrom('scouts')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .selectAll('scouts')
    .select(['units.slug as unit_slug', 'units.name as unit_name'])
    .where('scouts.household_id', 'in', ids)
    .orderBy('scouts.first_name')
    .execute()
  const checks = scouts.length
    ? await db
        .selectFrom('checks')
        .selectAll()
        .where('year', '=', year)
        .where(
          'scout_id',
          'in',
          scouts.map((s) => s.id),
        )
        .execute()
    : []
  const checkOf = (scoutId: number, item: CheckItem) => {
    const c = checks.find((x) => x.scout_id === scoutId && x.item === item)
    return c
      ? { done: c.done === 1, note: c.note, recorded_by: c.recorded_by, recorded_at: c.recorded_at }
      : { done: false, note: null, recorded_by: null, recorded_at: null }
  }
  const byId = new Map(households.map((h) => [h.id, h]))
  return ids
    .map((id) => byId.get(id))
    .filter((h) => h !== undefined)
    .map((h) => ({
      ...h,
      active: h.active === 1,
      people: people.filter((p) => p.household_id === h.id).map(({ household_id, ...p }) => p),
      scouts: scouts
        .filter((s) => s.household_id === h.id)
        .map((s) => ({
          ...s,
          checks: Object.fromEntries(CHECK_ITEMS.map((item) => [item, checkOf(s.id, item)])) as Record<
            CheckItem,
            ReturnType<typeof checkOf>
          >,
        })),
    }))
}

export async function findUnit(db: Executor, slugOrId: string) {
  const column = /^\d+$/.test(slugOrId) ? 'id' : 'slug'
  return db
    .selectFrom('units')
    .selectAll()
    .where(column, '=', (column === 'id' ? Number(slugOrId) : slugOrId) as never)
    .executeTakeFirst()
}

/** One household as householdsView shows it, with this program year's checklist; 404 when there is none. */
export async function householdById(db: Executor, id: number) {
  const [household] = await householdsView(db, [id], (await programYear(db)).year)
  if (!household) throw notFound('No such household')
  return household
}

/**
 * Linking accounts to a household shows them that family, so a leader links only households with a scout
 * in a unit they lead, or with no scouts yet; admins and owners link any household.
 */
export async function assertMayLinkHousehold(db: Executor, caller: Caller, householdId: number) {
  const me = caller.person
  if (me?.global_role) return
  const led = new Set(me?.units.filter((u) => u.role === 'leader').map((u) => u.unit_id) ?? [])
  const units = (await db.selectFrom('scouts').select('unit_id').where('household_id', '=', householdId).execute()).map((s) => s.unit_id)
  if (units.length && !units.some((u) => led.has(u))) throw forbidden("This household's scouts are in units you do not lead")
}
