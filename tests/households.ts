// A household with one scout, written straight into the database: a fixture for tests about who gets mail.
import type { Kysely } from 'kysely'
import type { Database } from '../server/db/database.ts'
import { nowIso } from '../server/schemas.ts'

export interface HouseholdFixture {
  unit: 'pack' | 'troop'
  den?: string | null
  /** The household's own address (null for none); linked accounts' addresses come through `accounts`. */
  email: string | null
  active?: boolean
  accounts?: number[]
  /** How many scouts: Sam, then Kid1, Kid2… (one unless given). */
  scouts?: number
  parent_name?: string
  emergency_phone?: string
}

/** Adds the household and its scouts; answers the household's id. Its parent is "Parent <email>" unless named. */
export async function addHousehold(db: Kysely<Database>, f: HouseholdFixture): Promise<number> {
  const now = nowIso()
  const unit = await db.selectFrom('units').select('id').where('slug', '=', f.unit).executeTakeFirstOrThrow()
  const { id } = await db
    .insertInto('households')
    .values({
      parent_name: f.parent_name ?? `Parent ${f.email ?? 'without mail'}`,
      email: f.email,
      phone: null,
      second_parent: null,
      notes: null,
      emergency_name: f.emergency_phone ? 'Emergency contact' : null,
      emergency_phone: f.emergency_phone ?? null,
      active: f.active === false ? 0 : 1,
      lead_id: null,
      created_at: now,
      updated_at: now,
      created_by_person_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (let i = 0; i < (f.scouts ?? 1); i++)
    await db
      .insertInto('scouts')
      .values({
        household_id: id,
        first_name: i ? `Kid${i}` : 'Sam',
        last_name: null,
        unit_id: unit.id,
        den: f.den ?? null,
        org_member_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
  for (const person_id of f.accounts ?? []) await db.insertInto('household_people').values({ household_id: id, person_id }).execute()
  return id
}
