// Which units a person leads: the one answer every server caller uses, and whoami hands to the browser. Admins,
// owners and the break-glass token act for every unit; a unit leader for the units of their leader memberships.
import { forbidden } from '../errors.ts'

interface Membership {
  unit_id: number
  slug: string
  role: string
  title: string | null
}

interface Roles<M extends { role: string }> {
  global_role: string | null
  units: M[]
}

/** The part of a Caller (credential.ts) this reads: kept structural so the module imports nothing it could circle through. */
interface Caller {
  via: string
  person: Roles<Membership> | null
}

/** The memberships in which the person leads (a global role alone leads none). */
export const leaderships = <M extends { role: string }>(person: Roles<M> | null | undefined): M[] =>
  person?.units.filter((u) => u.role === 'leader') ?? []

/** Whether the person leads at least one unit themselves. */
export const leadsAUnit = (person: Roles<{ role: string }> | null | undefined) => leaderships(person).length > 0

/** Whether the person may act for `unitId`: a global role, or a leader membership in it. */
export const leadsUnit = (person: Roles<Membership> | null | undefined, unitId: number) =>
  !!person && (person.global_role !== null || leaderships(person).some((u) => u.unit_id === unitId))

/** The units a caller's person leads, or null when they may touch every unit (an admin or owner, the break-glass token). */
export function ledUnits(caller: Caller): Set<number> | null {
  const me = caller.person
  if (caller.via === 'break_glass' || me?.global_role) return null
  return new Set(leaderships(me).map((u) => u.unit_id))
}

/** Whether the caller leads `unit` (a slug; `both`, an event for both units, asks for either of them). */
export function leadsSlug(caller: Caller, unit: string): boolean {
  if (ledUnits(caller) === null) return true
  const slugs = leaderships(caller.person).map((u) => u.slug)
  return unit === 'both' ? slugs.length > 0 : slugs.includes(unit)
}

/** 403 `unit_out_of_scope` unless the caller leads `unit`: a leader acts on the events and posts of their own units. */
export function assertLeadsSlug(caller: Caller, unit: string, what: string) {
  if (!leadsSlug(caller, unit)) throw forbidden(`${what} is for the ${unit}, a unit you do not lead`, 'unit_out_of_scope')
}

/** What whoami says of it: every unit or not, and the leader memberships (id, slug, title). */
export const ledUnitsView = (caller: Caller) => ({
  every_unit: ledUnits(caller) === null,
  units: leaderships(caller.person).map((u) => ({ unit_id: u.unit_id, slug: u.slug, title: u.title })),
})
