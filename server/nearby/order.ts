// The order of the nearby-units directory, on the public page and in the admin list: by type (packs first, as
// the types are listed), then by unit number as a number, then by name.
import { NEARBY_UNIT_TYPES } from './tables.ts'

type Listed = { unit_type: string; unit_number: string | null; name: string }

const numberOf = (u: Listed) => {
  const n = Number.parseInt(u.unit_number ?? '', 10)
  return Number.isNaN(n) ? Number.POSITIVE_INFINITY : n
}

export function directoryOrder(a: Listed, b: Listed): number {
  const type = (u: Listed) => (NEARBY_UNIT_TYPES as readonly string[]).indexOf(u.unit_type)
  return type(a) - type(b) || numberOf(a) - numberOf(b) || a.name.localeCompare(b.name)
}
