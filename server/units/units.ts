// The site's own units (the pack and the troop): finding one by slug or id, the ones a caller may edit, and
// changing their meeting details.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { UNIT_SLUGS } from './tables.ts'
import { record, unchanged, write } from '../db/write.ts'
import { forbidden, notFound } from '../errors.ts'
import { editableUnitIds } from '../people/queries.ts'
import { Instant, Line, Nullable, nowIso, OneOf, OptionalNullable, t, Time24, Weekday } from '../schemas.ts'

const EXAMPLE = {
  id: 1,
  slug: 'pack',
  name: 'Cub Scout Pack',
  unit_type: 'pack',
  number: '123',
  meeting_day: 'tuesday',
  meeting_time: '18:30',
  meeting_place: 'Community Church hall',
  updated_at: '2026-11-20T12:00:00.000Z',
}

export const UnitView = t.Object(
  {
    id: t.Integer(),
    slug: OneOf(UNIT_SLUGS),
    name: t.String(),
    unit_type: OneOf(UNIT_SLUGS),
    number: Nullable(t.String()),
    meeting_day: Nullable(Weekday),
    meeting_time: Nullable(t.String()),
    meeting_place: Nullable(t.String()),
    updated_at: Instant,
  },
  { $id: 'Unit', additionalProperties: false, examples: [EXAMPLE] },
)

export const UnitList = t.Object({ units: t.Array(UnitView) }, { additionalProperties: false, examples: [{ units: [EXAMPLE] }] })

export const UnitChange = t.Object(
  {
    name: t.Optional(Line(100, { minLength: 1 })),
    number: OptionalNullable(Line(20)),
    meeting_day: OptionalNullable(Weekday),
    meeting_time: OptionalNullable(Time24),
    meeting_place: OptionalNullable(Line(200)),
  },
  { additionalProperties: false, examples: [{ meeting_day: 'wednesday', meeting_time: '19:00' }] },
)

export const SlugOrId = t.String({ maxLength: 50, description: 'The unit: pack, troop, or its numeric id', examples: ['pack'] })

/** A unit by slug (`pack`) or numeric id (`1`). */
export function findUnit(db: Executor, slugOrId: string) {
  const byId = /^\d+$/.test(slugOrId)
  return db
    .selectFrom('units')
    .selectAll()
    .$if(byId, (q) => q.where('id', '=', Number(slugOrId)))
    .$if(!byId, (q) => q.where('slug', '=', slugOrId as never))
    .executeTakeFirst()
}

export async function listEditableUnits(db: Executor, caller: Caller) {
  const ids = await editableUnitIds(db, caller.person)
  return { units: ids.length ? await db.selectFrom('units').selectAll().where('id', 'in', ids).orderBy('id').execute() : [] }
}

/** A unit the caller may edit: 404 unknown, 403 outside the caller's units. */
export async function editableUnit(db: Executor, caller: Caller, slugOrId: string) {
  const unit = await findUnit(db, slugOrId)
  if (!unit) throw notFound('No such unit')
  if (!(await editableUnitIds(db, caller.person)).includes(unit.id)) throw forbidden('This unit is outside your scope')
  return unit
}

/** Changes what differs (also fine when nothing does: `changed` says); 403 outside the caller's units, 404 unknown. */
export async function changeUnit(db: Db, caller: Caller, slugOrId: string, change: typeof UnitChange.static) {
  const unit = await editableUnit(db, caller, slugOrId)
  const changes = Object.fromEntries(Object.entries(change).filter(([k, v]) => unit[k as keyof typeof unit] !== v))
  return write(db, async (trx) => {
    if (!Object.keys(changes).length) {
      unchanged(trx)
      return { unit, changed: false }
    }
    const row = await trx
      .updateTable('units')
      .set({ ...changes, updated_at: nowIso() })
      .where('id', '=', unit.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const shown = (v: unknown) => (v === null || v === '' ? 'none' : String(v))
    const summary = Object.entries(changes).map(
      ([k, v]) => `${k.replaceAll('_', ' ')} ${shown(unit[k as keyof typeof unit])} → ${shown(v)}`,
    )
    await record(trx, caller.actor, 'units.update', `${unit.name}: ${summary.join('; ')}`)
    return { unit: row, changed: true }
  })
}
