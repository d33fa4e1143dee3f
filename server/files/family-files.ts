// The forms and lists a family finds on its family page: the files of its units it may open (public ones, and
// members-only ones of a unit its household has a scout in or the person is a member of), each with the event it
// belongs to. An event's files show from the upload until a week after the event; a file of no event always.
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { occurrenceOf } from '../attendance/occurrence.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { t } from '../schemas.ts'
import { today } from '../settings/registry.ts'
import { addDays } from '../calendar/zone.ts'
import { FileView, fileView } from './files.ts'
import { mayOpen } from './serve.ts'

export const FamilyFiles = t.Object(
  {
    files: t.Array(
      t.Object(
        {
          ...FileView.properties,
          event: t.Union([t.Object({ uid: t.String(), title: t.String(), date: t.String({ format: 'date' }) }), t.Null()], {
            description: 'The event it belongs to (a packing list, a permission slip); null for a file of the unit',
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)

/** The units whose files are the family's: those of its households' scouts and of the person's memberships. */
async function familyUnits(db: Executor, caller: Caller): Promise<Set<string>> {
  const households = await ownHouseholdIds(db, caller)
  const scouts = households.length
    ? await db
        .selectFrom('scouts')
        .innerJoin('units', 'units.id', 'scouts.unit_id')
        .select('units.slug')
        .where('scouts.household_id', 'in', households)
        .execute()
    : []
  return new Set([...scouts.map((s) => s.slug), ...(caller.person?.units.map((u) => u.slug) ?? [])])
}

export async function familyFiles(db: Executor, caller: Caller) {
  const units = await familyUnits(db, caller)
  if (!units.size) return { files: [] }
  const rows = await db
    .selectFrom('files')
    .selectAll()
    .where('unit', 'in', ['both', ...units] as ('pack' | 'troop' | 'both')[])
    .orderBy('created_at', 'desc')
    .limit(200)
    .execute()
  const shownFrom = addDays(await today(db), -7)
  const events = new Map<string, { uid: string; title: string; date: string; last: string } | null>()
  const files = []
  for (const row of rows) {
    if (!(await mayOpen(db, caller.person, row))) continue
    let event = null
    if (row.event_uid) {
      if (!events.has(row.event_uid)) {
        const found = await occurrenceOf(db, row.event_uid)
        events.set(row.event_uid, found && { uid: row.event_uid, title: found.title, date: found.date, last: found.end ?? found.date })
      }
      const of = events.get(row.event_uid)!
      // A file of a deleted event, or of one more than a week past, is no longer what a family needs.
      if (!of || of.last < shownFrom) continue
      event = { uid: of.uid, title: of.title, date: of.date }
    }
    files.push({ ...fileView(row), event })
  }
  return { files }
}
