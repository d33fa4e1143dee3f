// GET /api/admin/family: the signed-in person's own active households, scouts, dens and this year's checklist.
import { defineRoute } from '../../../server/routes.ts'
import { householdsView, programYear } from '../../../server/roster/queries.ts'

export const GET = defineRoute({
  auth: 'account:self',
  summary: "Your own households, scouts, dens and this year's checklist (none when your account is not linked)",
  async handler({ db, caller }) {
    const ids = (
      await db
        .selectFrom('household_people')
        .innerJoin('households', 'households.id', 'household_people.household_id')
        .select('households.id')
        .where('household_people.person_id', '=', caller.person!.id)
        .where('households.active', '=', 1)
        .execute()
    ).map((r) => r.id)
    const year = await programYear(db)
    const households = (await householdsView(db, ids, year.year)).map(({ notes, lead_id, ...h }) => h)
    return { year, households }
  },
})
