// Demo data for trying the site: one person per role, with printed passwords. Never run implicitly.
import type { Db } from '../db/client.ts'
import { randomToken } from '../auth/tokens.ts'
import { record } from '../db/write.ts'
import { createAccount } from './accounts.ts'

const DEMO = [
  { email: 'owner@example.org', global_role: 'owner', unit: null },
  { email: 'admin@example.org', global_role: 'admin', unit: null },
  { email: 'pack.leader@example.org', global_role: null, unit: { slug: 'pack', role: 'leader', title: 'Cubmaster' } },
  { email: 'troop.leader@example.org', global_role: null, unit: { slug: 'troop', role: 'leader', title: 'Scoutmaster' } },
  { email: 'family@example.org', global_role: null, unit: { slug: 'pack', role: 'member', title: null } },
] as const

export async function seedDemo(db: Db): Promise<string[]> {
  const lines: string[] = []
  await db.transaction().execute(async (trx) => {
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
        password,
        global_role: d.global_role,
        units: d.unit && unit ? [{ unit_id: unit.id, role: d.unit.role, title: d.unit.title }] : [],
      })
      lines.push(`${d.email}  password: ${password}`)
    }
    await record(trx, 'cli', 'demo.seed', 'Loaded demo units and people')
  })
  return lines
}
