// The details a linked parent keeps themselves: contacts, the emergency contact, and each scout's preferred name
// and photo consent.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import { record, unchanged, write } from '../db/write.ts'
import { notFound, unprocessable } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { listWords } from '../words.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { householdsView, programYear } from '../roster/queries.ts'
import { familyView } from './family.ts'
import type { FamilyHouseholdChange } from './schemas.ts'

const same = (a: string | null | undefined, b: string | null) => a === undefined || (a ?? null) === b

/**
 * PATCH /api/admin/family/households/{id}: the family changes its own household's contacts and its scouts' preferred
 * names and photo consent, logged as the parent with what changed. Another household, linked or not, is 404; a scout
 * of another household is 422. Answers the household as the family sees it, and whether a scout's photo consent changed.
 */
export async function changeFamilyHousehold(db: Db, caller: Caller, id: number, change: typeof FamilyHouseholdChange.static) {
  if (!(await ownHouseholdIds(db, caller)).includes(id)) throw notFound('No such household of yours')
  let consentChanged = false
  await write(db, async (trx) => {
    const household = await trx.selectFrom('households').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const scouts = await trx.selectFrom('scouts').selectAll().where('household_id', '=', id).execute()
    const { scouts: scoutChanges = [], emergency_contact, ...contacts } = change
    const fields = {
      ...contacts,
      ...(emergency_contact === undefined
        ? {}
        : { emergency_name: emergency_contact?.name.trim() ?? null, emergency_phone: emergency_contact?.phone ?? null }),
    }
    const contactWords = [
      ...new Set(
        Object.entries(fields)
          .filter(([k, v]) => !same(v, household[k as keyof typeof fields]))
          .map(([k]) => (k.startsWith('emergency_') ? 'emergency contact' : k.replaceAll('_', ' '))),
      ),
    ]
    const changed = contactWords.length ? [listWords(contactWords)] : []
    if (changed.length)
      await trx
        .updateTable('households')
        .set({ ...fields, updated_at: nowIso() })
        .where('id', '=', id)
        .execute()

    for (const [i, { id: scoutId, preferred_name, photo_consent }] of scoutChanges.entries()) {
      const scout = scouts.find((s) => s.id === scoutId)
      if (!scout) throw unprocessable(`scouts.${i}.id: no scout ${scoutId} in this household`)
      const name = preferred_name === undefined ? undefined : preferred_name?.trim() || null
      const consent = photo_consent === undefined ? undefined : photo_consent ? 1 : 0
      const consentNow = consent !== undefined && consent !== scout.photo_consent
      consentChanged ||= consentNow
      const words = [
        !same(name, scout.preferred_name) && (name ? `goes by ${name}` : 'goes by their first name'),
        consentNow && (consent ? 'photos OK' : 'no photos'),
      ].filter((w) => w !== false)
      if (!words.length) continue
      await trx
        .updateTable('scouts')
        .set({ preferred_name: name, photo_consent: consent, updated_at: nowIso() })
        .where('id', '=', scoutId)
        .execute()
      changed.push(`${scout.first_name} ${words.join(', ')}`)
    }
    if (changed.length)
      await record(
        trx,
        caller.actor,
        'roster.household_update',
        `${household.parent_name}'s household, by the family: ${changed.join('; ')}`,
      )
    else unchanged(trx)
  })
  return { household: await familyHousehold(db, caller, id), consentChanged }
}

/** One household of the caller's, as their family page shows it; 404 for any other. */
export async function familyHousehold(db: Db, caller: Caller, id: number) {
  if (!(await ownHouseholdIds(db, caller)).includes(id)) throw notFound('No such household of yours')
  const [household] = await householdsView(db, [id], (await programYear(db)).year)
  return familyView(household)
}
