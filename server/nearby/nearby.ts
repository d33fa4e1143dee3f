// Nearby units: the directory's fields, the editing list, adding, editing (verified today unless a date is
// sent) and deactivating one.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { NEARBY_UNIT_TYPES } from './tables.ts'
import { record, write } from '../db/write.ts'
import { conflict, notFound } from '../errors.ts'
import {
  DateString,
  Email,
  Instant,
  Line,
  Lines,
  Nullable,
  nowIso,
  OneOf,
  OptionalNullable,
  t,
  Time24,
  Weekday,
  withMessage,
} from '../schemas.ts'
import { today } from '../settings/registry.ts'
import { fieldWords, UNIT_TYPE_WORDS } from '../words.ts'
import { directoryOrder } from './order.ts'

export const UnitType = OneOf(NEARBY_UNIT_TYPES)
const Name = Line(200, { minLength: 1 })
const Website = withMessage(t.String({ maxLength: 500, pattern: '^https?://' }), 'must be an http(s) address')

const fields = {
  unit_number: OptionalNullable(Line(20)),
  town: OptionalNullable(Line(100)),
  meeting_place: OptionalNullable(Line(200)),
  meeting_day: OptionalNullable(Weekday),
  meeting_time: OptionalNullable(Time24),
  website: OptionalNullable(Website),
  contact_email: OptionalNullable(Email),
  notes: OptionalNullable(Lines(2000)),
  verified_at: OptionalNullable(DateString),
}

const EXAMPLE = {
  id: 4,
  name: 'Crew 77 Venturing',
  unit_type: 'crew',
  unit_number: '77',
  town: 'Oak Park',
  meeting_place: 'Library basement',
  meeting_day: 'thursday',
  meeting_time: '19:00',
  website: 'https://crew77.example.org',
  contact_email: 'advisor@crew77.example.org',
  notes: null,
  verified_at: '2026-11-20',
  active: 1,
  created_at: '2026-09-01T12:00:00.000Z',
  updated_at: '2026-11-20T12:00:00.000Z',
}

export const NearbyView = t.Object(
  {
    id: t.Integer(),
    name: t.String(),
    unit_type: UnitType,
    unit_number: Nullable(t.String()),
    town: Nullable(t.String()),
    meeting_place: Nullable(t.String()),
    meeting_day: Nullable(Weekday),
    meeting_time: Nullable(t.String()),
    website: Nullable(t.String()),
    contact_email: Nullable(t.String()),
    notes: Nullable(t.String()),
    verified_at: Nullable(t.String({ format: 'date' })),
    active: t.Union([t.Literal(0), t.Literal(1)]),
    created_at: Instant,
    updated_at: Instant,
  },
  { $id: 'NearbyUnit', additionalProperties: false, examples: [EXAMPLE] },
)

export const NearbyList = t.Object(
  { nearby: t.Array(NearbyView, { description: 'Active first, then by type, unit number and name; inactive rows included' }) },
  { additionalProperties: false, examples: [{ nearby: [EXAMPLE] }] },
)

export const NewNearby = t.Object(
  { name: Name, unit_type: UnitType, ...fields },
  { additionalProperties: false, examples: [{ name: 'Crew 77 Venturing', unit_type: 'crew', town: 'Oak Park', meeting_day: 'thursday' }] },
)

export const NearbyChange = t.Object(
  { name: t.Optional(Name), unit_type: t.Optional(UnitType), active: t.Optional(t.Union([t.Literal(0), t.Literal(1)])), ...fields },
  { additionalProperties: false, examples: [{ meeting_time: '19:30' }] },
)

export const listNearby = async (db: Executor) => ({
  nearby: (await db.selectFrom('nearby_units').selectAll().execute()).sort((a, b) => b.active - a.active || directoryOrder(a, b)),
})

/** One row of the editing list; 404 when there is none. */
export async function nearbyById(db: Executor, id: number) {
  const row = await db.selectFrom('nearby_units').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('No such nearby unit')
  return row
}

export function addNearby(db: Db, caller: Caller, input: typeof NewNearby.static) {
  return write(db, async (trx) => {
    const now = nowIso()
    const row = await trx
      .insertInto('nearby_units')
      .values({ ...input, verified_at: input.verified_at ?? (await today(trx)), active: 1, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
    await record(trx, caller.actor, 'nearby.create', `Added ${row.name} (${UNIT_TYPE_WORDS[row.unit_type] ?? row.unit_type})`)
    return row
  })
}

/** Edits a row; verified_at becomes today unless the change carries a date. */
export function changeNearby(db: Db, caller: Caller, id: number, change: typeof NearbyChange.static) {
  return write(db, async (trx) => {
    await nearbyById(trx, id)
    const row = await trx
      .updateTable('nearby_units')
      .set({ ...change, verified_at: change.verified_at === undefined ? await today(trx) : change.verified_at, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await record(
      trx,
      caller.actor,
      'nearby.update',
      `${row.name}: ${Object.keys(change).length ? `changed ${fieldWords(change)}` : 'checked, nothing changed'}`,
    )
    return row
  })
}

/** Deactivates a row (it stays in the editing list); again 409. */
export function deactivateNearby(db: Db, caller: Caller, id: number) {
  return write(db, async (trx) => {
    const current = await nearbyById(trx, id)
    if (!current.active) throw conflict('The nearby unit is already inactive')
    const row = await trx
      .updateTable('nearby_units')
      .set({ active: 0, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await record(trx, caller.actor, 'nearby.deactivate', `Took ${current.name} off the directory`)
    return row
  })
}
