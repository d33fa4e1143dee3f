// Households written straight into the database: fixtures for tests about who gets mail, sign-ups and trip rosters;
// a family account linked to one, for tests that answer as the family; and a roster at real size.
import type { Kysely } from 'kysely'
import type { Database } from '../server/db/database.ts'
import { addDemoHouseholds, demoHouseholds } from '../server/people/demo.ts'
import { nowIso } from '../server/schemas.ts'
import { ROLES, type TestServer } from './helpers.ts'

export interface ScoutFixture {
  first_name: string
  last_name?: string | null
  den?: string | null
}

export interface HouseholdFixture {
  unit: 'pack' | 'troop'
  den?: string | null
  /** The household's own address (null for none); linked accounts' addresses come through `accounts`. */
  email: string | null
  active?: boolean
  accounts?: number[]
  /** How many scouts (Sam, then Kid1, Kid2…), or the scouts themselves; one Sam unless given. */
  scouts?: number | ScoutFixture[]
  parent_name?: string
  phone?: string | null
  second_parent?: string | null
  second_email?: string | null
  emergency_name?: string | null
  emergency_phone?: string | null
}

const scoutsOf = (f: HouseholdFixture): ScoutFixture[] =>
  Array.isArray(f.scouts) ? f.scouts : Array.from({ length: f.scouts ?? 1 }, (_, i) => ({ first_name: i ? `Kid${i}` : 'Sam' }))

/** Adds the household and its scouts; answers the household's id. Its parent is "Parent <email>" unless named. */
export async function addHousehold(db: Kysely<Database>, f: HouseholdFixture): Promise<number> {
  const now = nowIso()
  const unit = await db.selectFrom('units').select('id').where('slug', '=', f.unit).executeTakeFirstOrThrow()
  const { id } = await db
    .insertInto('households')
    .values({
      parent_name: f.parent_name ?? `Parent ${f.email ?? 'without mail'}`,
      email: f.email,
      phone: f.phone ?? null,
      second_parent: f.second_parent ?? null,
      second_email: f.second_email ?? null,
      notes: null,
      emergency_name: f.emergency_name ?? null,
      emergency_phone: f.emergency_phone ?? null,
      active: f.active === false ? 0 : 1,
      lead_id: null,
      created_at: now,
      updated_at: now,
      created_by_person_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const scout of scoutsOf(f))
    await db
      .insertInto('scouts')
      .values({
        household_id: id,
        first_name: scout.first_name,
        last_name: scout.last_name ?? null,
        unit_id: unit.id,
        den: scout.den ?? f.den ?? null,
        org_member_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
  for (const person_id of f.accounts ?? []) await db.insertInto('household_people').values({ household_id: id, person_id }).execute()
  return id
}

/**
 * A family account (a member, signed in, with `email` when given) linked to a new household: its email and cookie,
 * the household's id and its scouts' ids in the order added.
 */
export async function familyAccount(s: TestServer, f: Omit<HouseholdFixture, 'accounts'>, email?: string) {
  const person = await s.as({ ...ROLES.member, ...(email ? { email } : {}) })
  const household = await addHousehold(s.db, { ...f, accounts: [person.id] })
  const scouts = (await s.db.selectFrom('scouts').select('id').where('household_id', '=', household).orderBy('id').execute()).map(
    (r) => r.id,
  )
  return { email: person.email, cookie: person.cookie, household, scouts }
}

/**
 * A unit at real size, as `seed-demo` loads it: `count` households (at most 60) with realistic, varied names (some
 * accented), about 1.5 scouts each across the pack's dens and the troop's patrols, some dues unpaid and some health
 * forms missing or running out within the month; the last of 60 inactive. Answers the households as written and the
 * counts the roster gives for all of them.
 */
export async function seedRoster(s: TestServer, count = 60) {
  const households = demoHouseholds(count)
  await addDemoHouseholds(s.db, households, 'seed@example.org')
  const active = households.filter((h) => h.active).flatMap((h) => h.scouts)
  return {
    households,
    counts: {
      households: households.length,
      scouts: households.reduce((n, h) => n + h.scouts.length, 0),
      dues_unpaid: active.filter((sc) => !sc.dues).length,
      health_missing: active.filter((sc) => sc.health !== 'current').length,
    },
  }
}
