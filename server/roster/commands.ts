// Roster writes: households (from fields or a join-form lead), the accounts linked to them, scouts and the
// yearly checklist. Each is one transaction with its action-log entry. A unit leader writes only within the units
// they lead; admins and owners anywhere.
import type { Caller } from '../auth/credential.ts'
import { ledUnits } from '../auth/led-units.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import type { CheckItem } from './tables.ts'
import { record, unchanged, write } from '../db/write.ts'
import { conflict, forbidden, notFound, unprocessable } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { today } from '../settings/registry.ts'
import { fieldWords, listWords } from '../words.ts'
import { householdById, programYear, scoutById } from './queries.ts'
import type { CheckInput, HouseholdChange, NewHousehold, NewScout, ScoutChange } from './schemas.ts'

async function assertHousehold(db: Executor, id: number) {
  const household = await db.selectFrom('households').selectAll().where('id', '=', id).executeTakeFirst()
  if (!household) throw notFound('No such household')
  return household
}

async function assertUnit(db: Executor, unitId: number) {
  if (!(await db.selectFrom('units').select('id').where('id', '=', unitId).executeTakeFirst()))
    throw unprocessable(`unit_id: no unit ${unitId}`)
}

/** A lead's grade as a den, until a leader puts the scout in one: "3" → "grade 3". */
export const gradeDen = (grade: string) => (/grade/i.test(grade) ? grade : `grade ${grade}`).slice(0, 50)

/**
 * A household from its fields, or copied from a lead with `lead_id` (the lead unchanged; a second import 409): with
 * the scout the lead names as its first scout, in the lead's unit (or `unit`, needed when the family was not sure),
 * the grade standing in for a den. The caller must lead that unit (403), as for any scout.
 */
export async function createHousehold(db: Db, caller: Caller, input: typeof NewHousehold.static) {
  const lead_id = 'lead_id' in input ? input.lead_id : undefined
  const id = await write(db, async (trx) => {
    let values
    let scout: { first_name: string; last_name: string | null; unit_id: number; den: string | null } | null = null
    if ('lead_id' in input) {
      const { lead_id, unit: scoutUnit } = input
      const lead = await trx.selectFrom('leads').selectAll().where('id', '=', lead_id).executeTakeFirst()
      if (!lead) throw unprocessable(`lead_id: no lead ${lead_id}`)
      if (await trx.selectFrom('households').select('id').where('lead_id', '=', lead_id).executeTakeFirst())
        throw conflict(`Lead ${lead_id} was already imported`)
      values = { parent_name: lead.parent_name, email: lead.email, phone: lead.phone, notes: lead.message, lead_id }
      const name = lead.scout_name?.trim().split(/\s+/) ?? []
      if (name.length) {
        const slug = scoutUnit ?? (lead.unit === 'unsure' ? null : lead.unit)
        if (!slug) throw unprocessable(`unit: the family was not sure which unit ${name[0]} should join; say pack or troop`)
        const unit = await trx.selectFrom('units').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
        assertLeads(caller, unit.id)
        const grade = lead.scout_grade?.trim()
        scout = { first_name: name[0], last_name: name.slice(1).join(' ') || null, unit_id: unit.id, den: grade ? gradeDen(grade) : null }
      }
    } else {
      if (!input.parent_name.trim()) throw unprocessable('parent_name: is required')
      values = { ...input, parent_name: input.parent_name.trim() }
    }
    const now = nowIso()
    const row = await trx
      .insertInto('households')
      .values({ ...values, active: 1, created_at: now, updated_at: now, created_by_person_id: caller.person?.id ?? null })
      .returning('id')
      .executeTakeFirstOrThrow()
    await record(
      trx,
      caller.actor,
      'roster.household_create',
      `${values.parent_name}'s household${lead_id ? ', from their join form' : ''}`,
    )
    if (scout) {
      await trx
        .insertInto('scouts')
        .values({ ...scout, household_id: row.id, created_at: now, updated_at: now })
        .execute()
      await record(
        trx,
        caller.actor,
        'roster.scout_create',
        `${scout.first_name}, in ${values.parent_name}'s household, from their join form`,
      )
    }
    return row.id
  })
  return householdById(db, id)
}

/**
 * Edits a household; `active: false` deactivates it (it drops off the family view). Only what differs from the stored
 * household is written and logged: the page sends every field of its dialog.
 */
export async function changeHousehold(db: Db, caller: Caller, id: number, change: typeof HouseholdChange.static) {
  await write(db, async (trx) => {
    const current = await assertHousehold(trx, id)
    await assertKeepsHousehold(trx, caller, id)
    const { active, ...fields } = change
    const changed = Object.fromEntries(Object.entries(fields).filter(([k, v]) => (v ?? null) !== current[k as keyof typeof fields]))
    const activity = active === undefined || (active ? 1 : 0) === current.active ? undefined : active
    if (!Object.keys(changed).length && activity === undefined) return unchanged(trx)
    await trx
      .updateTable('households')
      .set({ ...changed, ...(activity === undefined ? {} : { active: activity ? 1 : 0 }), updated_at: nowIso() })
      .where('id', '=', id)
      .execute()
    const what = [
      ...(activity === false ? ['made inactive'] : activity === true ? ['made active again'] : []),
      ...(Object.keys(changed).length ? [`changed: ${fieldWords(changed)}`] : []),
    ]
    await record(trx, caller.actor, 'roster.household_update', `${current.parent_name}'s household ${what.join('; ')}`)
  })
  return householdById(db, id)
}

/** 403 unless the caller leads the unit (admins and owners lead every unit here). */
export function assertLeads(caller: Caller, unitId: number) {
  const led = ledUnits(caller)
  if (led && !led.has(unitId)) throw forbidden(`unit_id: you can only keep scouts in units you lead (unit ${unitId})`)
}

/**
 * A leader keeps only the households of their units: those with a scout in a unit they lead, or with no scouts yet
 * that they added themselves. Editing a household, linking accounts to it (which shows them that family) and adding
 * scouts to it all need this; admins and owners may touch any household.
 */
export async function assertKeepsHousehold(db: Executor, caller: Caller, householdId: number) {
  const led = ledUnits(caller)
  if (!led) return
  const units = (await db.selectFrom('scouts').select('unit_id').where('household_id', '=', householdId).execute()).map((s) => s.unit_id)
  if (units.length) {
    if (!units.some((u) => led.has(u))) throw forbidden("This household's scouts are in units you do not lead")
    return
  }
  const household = await db.selectFrom('households').select('created_by_person_id').where('id', '=', householdId).executeTakeFirstOrThrow()
  if (household.created_by_person_id !== caller.person?.id)
    throw forbidden('This household has no scouts yet and another leader added it: they or an admin can add its first scout')
}

/** The scout, when it is in a unit the caller leads: 404 for none, 403 for another unit's scout. */
async function scoutKept(db: Executor, caller: Caller, id: number) {
  const scout = await db.selectFrom('scouts').select(['id', 'first_name', 'unit_id']).where('id', '=', id).executeTakeFirst()
  if (!scout) throw notFound('No such scout')
  assertLeads(caller, scout.unit_id)
  return scout
}

/** Replaces the accounts linked to a household (the full list); an unknown person is 422. */
export async function linkPeople(db: Db, caller: Caller, id: number, personIds: number[]) {
  await write(db, async (trx) => {
    const household = await assertHousehold(trx, id)
    await assertKeepsHousehold(trx, caller, id)
    const linked = personIds.length ? await trx.selectFrom('people').select(['id', 'email']).where('id', 'in', personIds).execute() : []
    const unknown = personIds.filter((p) => !linked.some((k) => k.id === p))
    if (unknown.length) throw unprocessable(`person_ids: no person ${unknown.join(', ')}`)
    const before = await trx
      .selectFrom('household_people')
      .innerJoin('people', 'people.id', 'household_people.person_id')
      .select(['people.id', 'people.email'])
      .where('household_id', '=', id)
      .execute()
    await trx.deleteFrom('household_people').where('household_id', '=', id).execute()
    for (const person_id of personIds) await trx.insertInto('household_people').values({ household_id: id, person_id }).execute()
    // Logged as what changed: "linked robin@… to Hale's household", not the whole list again.
    const added = linked.filter((p) => !before.some((b) => b.id === p.id)).map((p) => p.email)
    const removed = before.filter((b) => !personIds.includes(b.id)).map((b) => b.email)
    const name = `${household.parent_name}'s household`
    const what = [added.length && `linked ${listWords(added)} to ${name}`, removed.length && `unlinked ${listWords(removed)} from ${name}`]
    await record(trx, caller.actor, 'roster.household_people', what.filter(Boolean).join('; ') || `${name}: linked accounts unchanged`)
  })
  return householdById(db, id)
}

export async function addScout(db: Db, caller: Caller, householdId: number, input: typeof NewScout.static) {
  const id = await write(db, async (trx) => {
    const household = await assertHousehold(trx, householdId)
    await assertUnit(trx, input.unit_id)
    await assertKeepsHousehold(trx, caller, householdId)
    assertLeads(caller, input.unit_id)
    const now = nowIso()
    const row = await trx
      .insertInto('scouts')
      .values({ ...input, first_name: input.first_name.trim(), household_id: householdId, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
    await record(trx, caller.actor, 'roster.scout_create', `${row.first_name}, in ${household.parent_name}'s household`)
    return row.id
  })
  return scoutById(db, id)
}

export async function changeScout(db: Db, caller: Caller, id: number, change: typeof ScoutChange.static) {
  await write(db, async (trx) => {
    await scoutKept(trx, caller, id)
    if (change.unit_id !== undefined) {
      await assertUnit(trx, change.unit_id)
      assertLeads(caller, change.unit_id)
    }
    const row = await trx
      .updateTable('scouts')
      .set({ ...change, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await record(trx, caller.actor, 'roster.scout_update', `${row.first_name} changed: ${fieldWords(change)}`)
  })
  return scoutById(db, id)
}

/**
 * Ticks (or unticks) dues or health_form for this program year, with who and when; only the fact is kept, and for a
 * health form the date written on it (not in the future, and only with done).
 */
export async function recordCheck(db: Db, caller: Caller, scoutId: number, item: CheckItem, input: typeof CheckInput.static) {
  const { year, label } = await programYear(db)
  const formDate = input.form_date ?? null
  if (formDate !== null) {
    if (item !== 'health_form') throw unprocessable('form_date: only a health form has a date')
    if (!input.done) throw unprocessable('form_date: give it with done: true')
    if (formDate > (await today(db))) throw unprocessable('form_date: the date on the form cannot be in the future')
  }
  return write(db, async (trx) => {
    const scout = await scoutKept(trx, caller, scoutId)
    const check = {
      done: input.done ? 1 : 0,
      note: input.note ?? null,
      form_date: formDate,
      recorded_by: caller.actor,
      recorded_at: nowIso(),
    }
    await trx
      .insertInto('checks')
      .values({ scout_id: scoutId, year, item, ...check })
      .onConflict((oc) => oc.columns(['scout_id', 'year', 'item']).doUpdateSet(check))
      .execute()
    const what = item === 'dues' ? 'dues' : `health form${formDate ? ` dated ${formDate}` : ''}`
    await record(trx, caller.actor, 'roster.check', `${scout.first_name}: ${what} ${input.done ? 'done' : 'not done'} for ${label}`)
    return { scout_id: scoutId, item, year, ...check, done: input.done }
  })
}
