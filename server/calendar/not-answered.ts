// Who has not answered an event that asks for replies: the active households with a scout in the event's units that
// the leader reaches, with how to reach them. It is the same set the audience `event.replies: ['none']` mails, so
// "Remind them" reaches exactly the households listed.
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { ledUnits } from '../auth/led-units.ts'
import { Nullable, t } from '../schemas.ts'
import { UNIT_SLUGS } from '../units/tables.ts'

export const NotAnswered = t.Array(
  t.Object(
    {
      household_id: t.Integer(),
      parent_name: t.String(),
      email: Nullable(t.String()),
      phone: Nullable(t.String()),
    },
    { additionalProperties: false },
  ),
  {
    description:
      "For leaders: the active households with a scout in the event's units (those you lead) that have not answered, by parent name",
  },
)

/** The households of the event's units (those the caller leads) that have not answered, and how many. */
export async function notAnswered(db: Executor, caller: Caller, event: { uid: string; unit: string }) {
  const led = ledUnits(caller)
  const slugs = event.unit === 'both' ? [...UNIT_SLUGS] : [event.unit as (typeof UNIT_SLUGS)[number]]
  const units = (await db.selectFrom('units').select('id').where('slug', 'in', slugs).execute())
    .map((u) => u.id)
    .filter((id) => !led || led.has(id))
  const rows = units.length
    ? await db
        .selectFrom('households')
        .select(['households.id as household_id', 'parent_name', 'email', 'phone'])
        .where('households.active', '=', 1)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('scouts')
              .select('scouts.id')
              .whereRef('scouts.household_id', '=', 'households.id')
              .where('scouts.unit_id', 'in', units),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('rsvps')
                .select('rsvps.uid')
                .where('rsvps.uid', '=', event.uid)
                .whereRef('rsvps.household_id', '=', 'households.id'),
            ),
          ),
        )
        .orderBy('parent_name')
        .orderBy('households.id')
        .execute()
    : []
  return { not_answered: rows, not_answered_count: rows.length }
}
