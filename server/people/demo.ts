// Demo data for trying the site: one person per role, with printed passwords, and a roster of a unit at real size
// (60 households, 90 scouts across the pack's dens and the troop's patrols, some dues and health forms outstanding).
// Never run implicitly; the browser tests seed the same roster.
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { hashPassword } from '../auth/passwords.ts'
import { randomToken } from '../auth/tokens.ts'
import { addDays } from '../calendar/zone.ts'
import { record, write } from '../db/write.ts'
import { programYear } from '../roster/queries.ts'
import { today } from '../settings/registry.ts'
import { createAccount } from './accounts.ts'

const DEMO = [
  { email: 'owner@example.org', global_role: 'owner', unit: null },
  { email: 'admin@example.org', global_role: 'admin', unit: null },
  { email: 'pack.leader@example.org', global_role: null, unit: { slug: 'pack', role: 'leader', title: 'Cubmaster' } },
  { email: 'troop.leader@example.org', global_role: null, unit: { slug: 'troop', role: 'leader', title: 'Scoutmaster' } },
  { email: 'family@example.org', global_role: null, unit: { slug: 'pack', role: 'member', title: null } },
] as const

/** The pack's dens and the troop's patrols the demo roster uses. */
export const DEMO_DENS = ['Lion', 'Tiger', 'Wolf', 'Bear', 'Webelos', 'Arrow of Light'] as const
export const DEMO_PATROLS = ['Eagle Patrol', 'Hawk Patrol', 'Fox Patrol'] as const

const PARENTS: [string, string][] = [
  ['Robin', 'Hale'],
  ['Renée', 'Côté'],
  ['Marcus', 'Abbott'],
  ['Priya', 'Natarajan'],
  ['Diego', 'Alvarez'],
  ['Hannah', 'Bailey'],
  ['Kwame', 'Mensah'],
  ['Siobhan', 'Brennan'],
  ['Luis', 'Castillo'],
  ['Mei', 'Chen'],
  ['Jordan', 'Dalton'],
  ['María', 'de la Cruz'],
  ['Patrick', 'Donovan'],
  ['Alicia', 'Ellis'],
  ['Rafael', 'Estrada'],
  ['Katrin', 'Fischer'],
  ['Sean', 'Fitzgerald'],
  ['Elena', 'Garcia'],
  ['Nora', 'Gallagher'],
  ['Linh', 'Hoang'],
  ['Camila', 'Ibarra'],
  ['Erik', 'Iverson'],
  ['Tanya', 'Jackson'],
  ['Lars', 'Jensen'],
  ['Harpreet', 'Kaur'],
  ['Piotr', 'Kowalski'],
  ['Claire', 'Lambert'],
  ['Ingrid', 'Lindqvist'],
  ['Sofia', 'Martinez'],
  ['Aidan', 'Murphy'],
  ['Chidi', 'Okafor'],
  ['Yuki', 'Nakamura'],
  ['Beatriz', 'Oliveira'],
  ['Omar', 'Haddad'],
  ['Grace', "O'Brien"],
  ['Dmitri', 'Petrov'],
  ['Lucia', 'Quintero'],
  ['Ben', 'Rasmussen'],
  ['Amara', 'Reyes'],
  ['Tomás', 'Rivera'],
  ['Fatima', 'Saleh'],
  ['Greg', 'Schmidt'],
  ['Hye-jin', 'Park'],
  ['Olivia', 'Thompson'],
  ['Minh', 'Tran'],
  ['Ulrich', 'Vogel'],
  ['Anneke', 'van Dijk'],
  ['Kiri', 'Walker'],
  ['Ray', 'Washington Jr.'],
  ['Zainab', 'Yusuf'],
  ['Ivan', 'Zhukov'],
  ['Leah', 'Cohen'],
  ['Mateo', 'Navarro'],
  ['Ruth', 'Stein'],
  ['Ahmed', 'Farouk'],
  ['Carmen', 'Vega'],
  ['Jamal', 'Brooks'],
  ['Ines', 'Moreau'],
  ['Noah', 'Fielding'],
  ['Paula', 'Young'],
]
const SECOND = ['Alex', 'Sam', 'Jesse', 'Morgan', 'Casey', 'Taylor', 'Jamie', 'Drew', 'Kim', 'Rowan']
const KIDS = [
  'Leo',
  'Ava',
  'Mateo',
  'Zoë',
  'Ethan',
  'Maya',
  'Liam',
  'Aria',
  'Noah',
  'Isla',
  'Elijah',
  'Chloé',
  'Owen',
  'Nora',
  'Caleb',
  'Ruby',
  'Felix',
  'Hazel',
  'Jonah',
  'Iris',
  'Miles',
  'Lena',
  'Theo',
  'Ada',
  'Ezra',
  'June',
  'Hugo',
  'Wren',
  'Oscar',
  'Mila',
  'Jasper',
  'Luz',
  'Ari',
  'Nadia',
  'Kai',
]
/** Some scouts go by another name than their first. */
const GOES_BY: Record<string, string> = { Elijah: 'Eli', Jonah: 'Joey', Nadia: 'Dee' }

export type HealthForm = 'current' | 'expiring' | 'missing'

export interface DemoScout {
  first_name: string
  last_name: string | null
  preferred_name: string | null
  unit: 'pack' | 'troop'
  den: string
  photo_consent: boolean
  dues: boolean
  health: HealthForm
}

export interface DemoHousehold {
  parent_name: string
  sort_name: string | null
  second_parent: string | null
  email: string
  phone: string
  emergency_name: string | null
  emergency_phone: string | null
  active: boolean
  scouts: DemoScout[]
}

const ascii = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '')

/**
 * `count` households (at most 60), always the same: 90 scouts in 60, one to three a household, two of three
 * scouts in the pack's dens and one in the troop's patrols; about one in seven owes dues, about one in eight has no
 * current health form and one in twelve a form running out within the month; most agree to photos. The last of 60
 * has moved away (inactive).
 */
export function demoHouseholds(count = 60): DemoHousehold[] {
  let n = 0
  const inUnit = { pack: 0, troop: 0 }
  return PARENTS.slice(0, count).map(([first, last], i) => {
    const size = i % 2 === 0 || i % 10 === 5 ? 1 : i % 10 === 9 ? 3 : 2
    const scouts = Array.from({ length: size }, (): DemoScout => {
      const j = n++
      const name = KIDS[(j * 11) % KIDS.length]
      const unit = j % 3 === 2 ? 'troop' : 'pack'
      return {
        first_name: name,
        last_name: j % 9 === 4 ? null : last.replace(/ Jr\.$/, ''),
        preferred_name: GOES_BY[name] ?? null,
        unit,
        den: unit === 'troop' ? DEMO_PATROLS[inUnit.troop++ % DEMO_PATROLS.length] : DEMO_DENS[inUnit.pack++ % DEMO_DENS.length],
        photo_consent: j % 5 !== 3,
        dues: j % 7 !== 3,
        health: j % 8 === 5 ? 'missing' : j % 12 === 7 ? 'expiring' : 'current',
      }
    })
    return {
      parent_name: `${first} ${last}`,
      sort_name: last === 'de la Cruz' ? 'de la Cruz' : null,
      second_parent: i % 3 === 0 ? `${SECOND[i % SECOND.length]} ${last}` : null,
      email: `${ascii(first)}.${ascii(last)}@example.org`,
      phone: `555-${100 + i}-${1000 + ((i * 379) % 9000)}`,
      emergency_name: i % 4 === 1 ? null : `${SECOND[(i + 3) % SECOND.length]} ${PARENTS[(i + 7) % PARENTS.length][1]}`,
      emergency_phone: i % 4 === 1 ? null : `555-${200 + i}-${1000 + ((i * 593) % 9000)}`,
      active: i !== 59,
      scouts,
    }
  })
}

/**
 * Writes households as given, with this program year's dues and the date on each health form (a current form is
 * dated months ago, an expiring one 350 days ago, a missing one never handed in). Returns how many scouts it added.
 */
export async function addDemoHouseholds(db: Executor, households: DemoHousehold[], recordedBy: string): Promise<number> {
  const now = new Date().toISOString()
  const day = await today(db)
  const { year } = await programYear(db)
  const unitIds = new Map((await db.selectFrom('units').select(['id', 'slug']).execute()).map((u) => [u.slug, u.id]))
  let added = 0
  for (const { scouts, active, ...household } of households) {
    const { id } = await db
      .insertInto('households')
      .values({ ...household, notes: null, active: active ? 1 : 0, lead_id: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const { unit, dues, health, photo_consent, ...scout } of scouts) {
      const row = await db
        .insertInto('scouts')
        .values({
          ...scout,
          household_id: id,
          unit_id: unitIds.get(unit)!,
          org_member_id: null,
          photo_consent: photo_consent ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      added++
      const check = { scout_id: row.id, year, note: null, recorded_by: recordedBy, recorded_at: now }
      if (dues)
        await db
          .insertInto('checks')
          .values({ ...check, item: 'dues', done: 1, form_date: null })
          .execute()
      if (health !== 'missing') {
        const form_date = addDays(day, health === 'expiring' ? -350 : -30 - ((row.id * 17) % 250))
        await db
          .insertInto('checks')
          .values({ ...check, item: 'health_form', done: 1, form_date })
          .execute()
      }
    }
  }
  return added
}

export async function seedDemo(db: Db): Promise<string[]> {
  const lines: string[] = []
  await write(db, async (trx) => {
    await trx
      .updateTable('units')
      .set({ number: '123', meeting_day: 'tuesday', meeting_time: '18:30', meeting_place: 'Community Church hall' })
      .where('slug', '=', 'pack')
      .execute()
    await trx
      .updateTable('units')
      .set({ number: '456', meeting_day: 'monday', meeting_time: '19:00', meeting_place: 'Scout cabin, Park Road' })
      .where('slug', '=', 'troop')
      .execute()
    for (const d of DEMO) {
      if (await trx.selectFrom('people').select('id').where('email', '=', d.email).executeTakeFirst()) {
        lines.push(`${d.email}: exists already, unchanged`)
        continue
      }
      const password = randomToken().slice(0, 16)
      const unit = d.unit && (await trx.selectFrom('units').select('id').where('slug', '=', d.unit.slug).executeTakeFirstOrThrow())
      await createAccount(trx, {
        email: d.email,
        name: null,
        password_hash: await hashPassword(password),
        global_role: d.global_role,
        units: d.unit && unit ? [{ unit_id: unit.id, role: d.unit.role, title: d.unit.title }] : [],
      })
      lines.push(`${d.email}  password: ${password}`)
    }
    // The roster only into an empty one: a second run, or a real unit's database, keeps its households.
    if (!(await trx.selectFrom('households').select('id').limit(1).executeTakeFirst())) {
      const households = demoHouseholds(60)
      const scouts = await addDemoHouseholds(trx, households, 'cli')
      const family = await trx.selectFrom('people').select('id').where('email', '=', 'family@example.org').executeTakeFirstOrThrow()
      const first = await trx.selectFrom('households').select('id').orderBy('id').executeTakeFirstOrThrow()
      await trx.insertInto('household_people').values({ household_id: first.id, person_id: family.id }).execute()
      lines.push(`Roster: ${households.length} demo households with ${scouts} scouts; family@example.org is linked to the first`)
    } else lines.push('Roster: has households already, unchanged')
    await record(trx, 'cli', 'demo.seed', 'Loaded demo units, people and roster')
  })
  return lines
}
