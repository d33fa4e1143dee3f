// What importing rows would do to the roster: each row checked (a bad one listed with its line and reason, never
// written), scouts grouped into households by parent email (or parent name and phone), an existing scout found by
// member id, then by first and last name in its unit, and an existing household by its scout or email.
import type { Executor } from '../db/database.ts'
import type { ImportRow } from './import-read.ts'

export interface PlanHousehold {
  action: 'create' | 'update' | 'unchanged'
  id: number | null
  parent_name: string
  email: string | null
  phone: string | null
  second_parent: string | null
  second_email: string | null
  changes: string[]
  lines: number[]
}
export interface PlanScout {
  line: number
  action: 'create' | 'update' | 'unchanged'
  id: number | null
  first_name: string
  last_name: string | null
  unit: string
  unit_id: number
  den: string | null
  org_member_id: string | null
  /** Index of its household in the plan's households. */
  household: number
  changes: string[]
}
export interface Plan {
  households: PlanHousehold[]
  scouts: PlanScout[]
  bad_rows: { line: number; reason: string }[]
  new_dens: { unit: string; den: string }[]
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/
const PHONE = /^[0-9+()\-.\s]{7,40}$/
const MEMBER_ID = /^[0-9]{6,12}$/
const lower = (s: string | null | undefined) => (s ?? '').toLowerCase()
const digits = (s: string | null | undefined) => (s ?? '').replace(/\D/g, '')

/** A unit named in a row: its slug or name, or a word that says which ("Cub Scouts", "Troop 12"). */
function unitNamed(units: { id: number; slug: string; name: string }[], text: string) {
  const t = lower(text).trim()
  const exact = units.find((u) => u.slug === t || lower(u.name) === t || String(u.id) === t)
  if (exact) return exact
  const slug = /pack|cub/.test(t) ? 'pack' : /troop|scouts ?bsa|boy scout/.test(t) ? 'troop' : null
  return units.find((u) => u.slug === slug)
}

/** The same value as stored: emails in any case, phones by their digits. */
const same = (field: string, a: string | number | null, b: string | number | null) =>
  field === 'email' || field === 'second_email'
    ? lower(a as string) === lower(b as string)
    : field === 'phone'
      ? digits(a as string) === digits(b as string)
      : a === b

/**
 * `led`: the units the caller may write (null: all); `personId` the importer (a leader keeps a household without
 * scouts only when they added it, as on the roster). `defaultUnit`: for rows that name none.
 */
export async function planImport(
  db: Executor,
  rows: ImportRow[],
  defaultUnit: number | null,
  { led, personId }: { led: Set<number> | null; personId: number | null },
): Promise<Plan> {
  const units = await db.selectFrom('units').select(['id', 'slug', 'name']).orderBy('id').execute()
  const scouts = await db.selectFrom('scouts').selectAll().execute()
  const households = await db.selectFrom('households').selectAll().execute()
  const unitsOf = new Map<number, Set<number>>()
  for (const sc of scouts) unitsOf.set(sc.household_id, (unitsOf.get(sc.household_id) ?? new Set()).add(sc.unit_id))
  const byMemberId = new Map(scouts.filter((s) => s.org_member_id).map((s) => [s.org_member_id!, s]))
  const byName = new Map(scouts.map((s) => [`${s.unit_id} ${lower(s.first_name)} ${lower(s.last_name)}`, s]))
  const byEmail = new Map(households.filter((h) => h.email).map((h) => [lower(h.email), h]))
  const byNamePhone = new Map(households.filter((h) => !h.email).map((h) => [`${lower(h.parent_name)} ${digits(h.phone)}`, h]))
  const householdById = new Map(households.map((h) => [h.id, h]))
  const dens = new Set(scouts.filter((s) => s.den).map((s) => `${s.unit_id} ${s.den}`))
  const plan: Plan = { households: [], scouts: [], bad_rows: [], new_dens: [] }
  const groups = new Map<string, number>()
  const memberLines = new Map<string, number>()
  const nameLines = new Map<string, number>()

  const keeps = (household: { id: number; created_by_person_id: number | null }) => {
    if (!led) return true
    const held = unitsOf.get(household.id)
    return held?.size ? [...held].some((u) => led.has(u)) : household.created_by_person_id === personId
  }

  for (const row of rows) {
    const bad = (reason: string) => void plan.bad_rows.push({ line: row.line, reason })
    if (!row.first_name) {
      bad('no scout first name')
      continue
    }
    const unit = row.unit ? unitNamed(units, row.unit) : units.find((u) => u.id === defaultUnit)
    if (!unit) {
      bad(row.unit ? `no unit “${row.unit}” (say pack or troop)` : 'no unit: add a Unit column or choose the unit to import into')
      continue
    }
    if (led && !led.has(unit.id)) {
      bad(`${unit.name} is a unit you do not lead`)
      continue
    }
    const problem =
      (!row.parent_name && 'no parent name') ||
      (row.first_name.length > 100 && 'the first name is longer than 100 characters') ||
      (row.last_name.length > 100 && 'the last name is longer than 100 characters') ||
      (row.parent_name.length > 100 && 'the parent name is longer than 100 characters') ||
      (row.den.length > 50 && 'the den or patrol is longer than 50 characters') ||
      (row.email && !EMAIL.test(row.email) && `parent email “${row.email}” is not an email address`) ||
      (row.second_email && !EMAIL.test(row.second_email) && `second parent email “${row.second_email}” is not an email address`) ||
      (row.phone && !PHONE.test(row.phone) && `parent phone “${row.phone}” is not a phone number`) ||
      (row.org_member_id && !MEMBER_ID.test(row.org_member_id) && `member id “${row.org_member_id}” is not 6 to 12 digits`)
    if (problem) {
      bad(problem)
      continue
    }
    const secondParent = row.second_parent || null
    const secondEmail = row.second_email ? row.second_email.toLowerCase() : null
    if (secondParent && secondParent.length > 100) {
      bad('the second parent is longer than 100 characters')
      continue
    }
    const nameKey = `${unit.id} ${lower(row.first_name)} ${lower(row.last_name)}`
    const twice = (row.org_member_id && memberLines.get(row.org_member_id)) || nameLines.get(nameKey)
    if (twice) {
      bad(`the same scout as line ${twice}`)
      continue
    }
    const existing = (row.org_member_id && byMemberId.get(row.org_member_id)) || byName.get(nameKey)
    if (existing && led && !led.has(existing.unit_id)) {
      bad(`${existing.first_name} is in a unit you do not lead`)
      continue
    }
    // The household: the group this file already gave the parent, else the existing scout's, else one found by email.
    const email = row.email ? row.email.toLowerCase() : null
    const groupKey = email ?? `${lower(row.parent_name)} ${digits(row.phone)}`
    let index = groups.get(groupKey)
    if (index === undefined) {
      const found =
        (existing && householdById.get(existing.household_id)) ||
        (email ? byEmail.get(email) : byNamePhone.get(`${lower(row.parent_name)} ${digits(row.phone)}`))
      if (found && !keeps(found)) {
        bad(`${found.parent_name}'s household is kept by another unit's leaders`)
        continue
      }
      const wanted = {
        parent_name: row.parent_name,
        email,
        phone: row.phone || null,
        second_parent: secondParent,
        second_email: secondEmail,
      }
      const changes = found
        ? (Object.keys(wanted) as (keyof typeof wanted)[]).filter((k) => wanted[k] !== null && !same(k, wanted[k], found[k]))
        : []
      plan.households.push({
        action: !found ? 'create' : changes.length ? 'update' : 'unchanged',
        id: found?.id ?? null,
        ...(found
          ? {
              parent_name: found.parent_name,
              email: found.email,
              phone: found.phone,
              second_parent: found.second_parent,
              second_email: found.second_email,
            }
          : {}),
        ...Object.fromEntries(Object.entries(wanted).filter(([k]) => !found || (changes as string[]).includes(k))),
        changes,
        lines: [],
      } as PlanHousehold)
      index = plan.households.length - 1
      groups.set(groupKey, index)
    }
    plan.households[index].lines.push(row.line)
    if (row.org_member_id) memberLines.set(row.org_member_id, row.line)
    nameLines.set(nameKey, row.line)
    const scout = {
      first_name: row.first_name,
      last_name: row.last_name || null,
      unit_id: unit.id,
      den: row.den || null,
      org_member_id: row.org_member_id || null,
    }
    const changes = existing
      ? (Object.keys(scout) as (keyof typeof scout)[]).filter((k) => scout[k] !== null && scout[k] !== existing[k])
      : []
    plan.scouts.push({
      line: row.line,
      action: !existing ? 'create' : changes.length ? 'update' : 'unchanged',
      id: existing?.id ?? null,
      ...scout,
      unit: unit.slug,
      household: index,
      changes,
    })
    if (scout.den && !dens.has(`${unit.id} ${scout.den}`)) {
      dens.add(`${unit.id} ${scout.den}`)
      plan.new_dens.push({ unit: unit.slug, den: scout.den })
    }
  }
  return plan
}
