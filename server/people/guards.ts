// Guards on people: nobody disables themselves, the site always keeps an enabled owner; and closing reset links.
import { conflict, forbidden, notFound } from '../errors.ts'
import type { Executor } from '../db/database.ts'
import type { Caller } from '../auth/credential.ts'

export async function targetPerson(db: Executor, id: number) {
  const person = await db.selectFrom('people').select(['id', 'email', 'global_role', 'disabled_at']).where('id', '=', id).executeTakeFirst()
  if (!person) throw notFound('No such person')
  return person
}

/** 409 when taking `personId` out of the enabled owners would leave none. */
export async function assertAnotherOwner(db: Executor, personId: number, what: string) {
  const others = await db
    .selectFrom('people')
    .select('id')
    .where('global_role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .where('id', '!=', personId)
    .limit(1)
    .executeTakeFirst()
  if (!others) throw conflict(`${what} would leave the site without an enabled owner`)
}

export function assertNotSelf(caller: Caller, personId: number) {
  if (caller.person?.id === personId) throw forbidden('You cannot disable yourself')
}

/**
 * Closes every open reset link of a person (a new link replaces them; disabling closes them), or with
 * `onlyAskedBySelf` just those the person asked for themselves: a stranger's ask must not kill a leader's link.
 */
export async function closeResetLinks(db: Executor, personId: number, now: string, { onlyAskedBySelf = false } = {}) {
  await db
    .updateTable('reset_links')
    .set({ revoked_at: now })
    .where('person_id', '=', personId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .$if(onlyAskedBySelf, (q) => q.where('asked_by_self', '=', 1))
    .execute()
}
