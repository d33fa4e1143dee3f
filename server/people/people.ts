// People: everyone with an account (their roles, sessions and keys), open invites and what the caller may
// grant; disabling and enabling someone; replacing their roles.
import { groupBy } from '../group-by.ts'
import type { Caller } from '../auth/credential.ts'
import { leadsUnit } from '../auth/led-units.ts'
import { endSessionsOf } from '../auth/sessions.ts'
import type { Db } from '../db/client.ts'
import { GLOBAL_ROLES, UNIT_ROLES } from '../auth/capabilities.ts'
import type { Executor } from '../db/database.ts'
import { record, unchanged, write } from '../db/write.ts'
import { KeyView, keyView } from '../keys/keys.ts'
import { notFound } from '../errors.ts'
import { Instant, nowIso, OneOf, t } from '../schemas.ts'
import { assertMayGrant, holdsMore, rolesInWords, type UnitGrant } from './grants.ts'
import { closeLinksIssued } from './link-issuers.ts'
import { syncAsked } from '../auth/second-factor-policy.ts'
import { assertAnotherOwner, assertNotSelf, closeResetLinks, targetPerson } from './guards.ts'
import { InviteView } from './invites.ts'
import { loadPeople, loadPerson } from '../auth/person.ts'
import { GlobalRoleSchema, PersonSummary, SessionView, UnitGrantSchema, UnitRoleSchema } from './schemas.ts'

export const PersonListing = t.Object(
  {
    ...PersonSummary.properties,
    disabled: t.Boolean(),
    created_at: Instant,
    sessions: t.Array(SessionView, { description: 'Address and browser only for yourself and owners' }),
    keys: t.Array(KeyView),
    second_factor: t.Boolean({ description: 'Signs in with an authenticator app or a passkey besides the password' }),
  },
  {
    $id: 'PersonListing',
    additionalProperties: false,
    examples: [
      {
        ...PersonSummary.examples[0],
        disabled: false,
        created_at: '2026-09-01T12:00:00.000Z',
        sessions: [{ id: 12, created_at: '2026-11-20T19:02:11.000Z', last_seen_at: '2026-11-23T07:15:40.000Z' }],
        keys: [],
        second_factor: true,
      },
    ],
  },
)

export const People = t.Object(
  {
    people: t.Array(PersonListing, { description: 'By email' }),
    invites: t.Array(InviteView, { description: 'Open invites, newest first' }),
    grantable: t.Object(
      {
        global_roles: t.Array(OneOf(GLOBAL_ROLES), { description: 'Global roles you may grant' }),
        units: t.Array(
          t.Object(
            { id: t.Integer(), slug: t.String(), name: t.String(), roles: t.Array(UnitRoleSchema) },
            { additionalProperties: false },
          ),
          { description: 'Units you may grant roles in' },
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        people: PersonListing.examples,
        invites: [
          {
            id: 8,
            email: 'robin.hale@example.org',
            global_role: null,
            units: [{ unit_id: 1, role: 'member' }],
            invited_by: 'akela@example.org',
            created_at: '2026-11-23T08:00:00.000Z',
            expires_at: '2026-12-07T08:00:00.000Z',
          },
        ],
        grantable: { global_roles: [], units: [{ id: 1, slug: 'pack', name: 'Cub Scout Pack', roles: ['member', 'leader'] }] },
      },
    ],
  },
)

/** Everyone (or the one with `id`) as the people list shows them: roles, sessions, keys and second factor. */
async function listings(db: Executor, caller: Caller, id: number | null) {
  const now = nowIso()
  const me = caller.person!
  const sessions = await db
    .selectFrom('sessions')
    .select(['id', 'person_id', 'created_at', 'last_seen_at', 'address', 'user_agent'])
    .where('expires_at', '>', now)
    .$if(id !== null, (q) => q.where('person_id', '=', id!))
    .execute()
  const sessionsOf = groupBy(sessions, (s) => s.person_id)
  const keys = await db
    .selectFrom('api_keys')
    .selectAll()
    .$if(id !== null, (q) => q.where('person_id', '=', id!))
    .orderBy('id', 'desc')
    .execute()
  const keysOf = groupBy(keys, (k) => k.person_id)
  const withFactor = new Set(
    (await db.selectFrom('second_factors').select('person_id').distinct().where('confirmed_at', 'is not', null).execute()).map(
      (f) => f.person_id,
    ),
  )
  // Where and on what someone signs in is theirs and the owners' to see; others get the count and times.
  const seesSessionsOf = (id: number) => id === me.id || caller.capabilities.has('people:manage')
  return (await loadPeople(db, id)).map((p) => {
    const theirs = sessionsOf.get(p.id) ?? []
    return {
      ...p,
      sessions: seesSessionsOf(p.id)
        ? theirs.map(({ person_id, ...s }) => s)
        : theirs.map(({ id, created_at, last_seen_at }) => ({ id, created_at, last_seen_at })),
      keys: (keysOf.get(p.id) ?? []).map(keyView),
      second_factor: withFactor.has(p.id),
    }
  })
}

/** One person as the people list shows them; 404 when there is none. */
export async function personById(db: Executor, caller: Caller, id: number) {
  const [person] = await listings(db, caller, id)
  if (!person) throw notFound('No such person')
  return person
}

export async function listPeople(db: Executor, caller: Caller) {
  const now = nowIso()
  const me = caller.person!
  const people = await listings(db, caller, null)
  const invites = await db
    .selectFrom('invites')
    .select(['id', 'email', 'global_role', 'units', 'invited_by', 'created_at', 'expires_at'])
    .where('revoked_at', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute()
  const units = await db.selectFrom('units').select(['id', 'slug', 'name']).orderBy('id').execute()
  const grantable = {
    global_roles: caller.capabilities.has('people:manage')
      ? [...GLOBAL_ROLES]
      : caller.capabilities.has('people:invite_admin')
        ? ['admin' as const]
        : [],
    units: units.filter((u) => leadsUnit(me, u.id)).map((u) => ({ ...u, roles: [...UNIT_ROLES] })),
  }
  return { people, invites: invites.map((i) => ({ ...i, units: JSON.parse(i.units) as UnitGrant[] })), grantable }
}

export const Disabled = t.Object(
  { id: t.Integer(), email: t.String(), disabled: t.Boolean() },
  { additionalProperties: false, examples: [{ id: 14, email: 'robin.hale@example.org', disabled: true }] },
)

/**
 * Sessions end, keys are revoked (they stay revoked when the person is enabled again), their reset links close and
 * so does every invite and reset link they issued; the row stays. Not yourself (403), not the last owner (409);
 * again 200.
 */
export function disablePerson(db: Db, caller: Caller, id: number) {
  return write(db, async (trx) => {
    const person = await targetPerson(trx, id)
    assertNotSelf(caller, id)
    if (person.disabled_at) {
      unchanged(trx)
      return { id, email: person.email, disabled: true }
    }
    if (person.global_role === 'owner') await assertAnotherOwner(trx, id, 'Disabling this owner')
    const now = nowIso()
    await trx.updateTable('people').set({ disabled_at: now }).where('id', '=', id).execute()
    await endSessionsOf(trx, id)
    await closeResetLinks(trx, id, now)
    const keys = await trx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('person_id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    const links = await closeLinksIssued(trx, { personId: id }, now)
    const also = [
      counted(Number(keys.numUpdatedRows), 'key revoked', 'keys revoked'),
      counted(links, 'link they gave closed', 'links they gave closed'),
    ].filter(Boolean)
    await record(trx, caller.actor, 'people.disable', `Disabled ${person.email}${also.length ? ` (${also.join('; ')})` : ''}`)
    return { id, email: person.email, disabled: true }
  })
}

/** A disabled person may sign in again; enabling an enabled one is 200 and changes nothing. */
export function enablePerson(db: Db, caller: Caller, id: number) {
  return write(db, async (trx) => {
    const person = await targetPerson(trx, id)
    if (!person.disabled_at) unchanged(trx)
    else {
      await trx.updateTable('people').set({ disabled_at: null }).where('id', '=', id).execute()
      await record(trx, caller.actor, 'people.enable', `Enabled ${person.email}`)
    }
    return { id, email: person.email, disabled: false }
  })
}

export const Roles = t.Object(
  {
    global_role: GlobalRoleSchema,
    units: t.Array(UnitGrantSchema, { maxItems: 20, description: 'The full list: units left out lose their role' }),
  },
  { additionalProperties: false, examples: [{ global_role: null, units: [{ unit_id: 1, role: 'leader', title: 'Cubmaster' }] }] },
)

export const PersonAnswer = t.Object(
  { person: t.Object({ ...PersonSummary.properties, disabled: t.Boolean() }, { additionalProperties: false }) },
  { additionalProperties: false, examples: [{ person: { ...PersonSummary.examples[0], disabled: false } }] },
)

/** "1 key revoked", "2 keys revoked", or nothing for none. */
const counted = (n: number, one: string, many: string) => (n === 0 ? '' : `${n} ${n === 1 ? one : many}`)

/**
 * Replaces global role and unit roles; 409 when no enabled owner would remain. A role the person did not hold
 * before closes their open reset links (one issued for a leader must not take over an owner); losing a role closes
 * every invite and reset link they issued.
 */
export async function setRoles(db: Db, caller: Caller, id: number, roles: typeof Roles.static) {
  await assertMayGrant(db, caller, roles.global_role, roles.units)
  await write(db, async (trx) => {
    const person = await targetPerson(trx, id)
    if (person.global_role === 'owner' && roles.global_role !== 'owner') await assertAnotherOwner(trx, id, 'This change')
    const before = {
      global_role: person.global_role,
      units: await trx.selectFrom('memberships').select(['unit_id', 'role']).where('person_id', '=', id).execute(),
    }
    const now = nowIso()
    if (holdsMore(roles, before)) await closeResetLinks(trx, id, now)
    const closed = holdsMore(before, roles) ? await closeLinksIssued(trx, { personId: id }, now) : 0
    await trx.updateTable('people').set({ global_role: roles.global_role }).where('id', '=', id).execute()
    await trx.deleteFrom('memberships').where('person_id', '=', id).execute()
    for (const u of roles.units)
      await trx
        .insertInto('memberships')
        .values({ person_id: id, unit_id: u.unit_id, role: u.role, title: u.title ?? null })
        .execute()
    await syncAsked(trx, id)
    const summary = await rolesInWords(trx, roles.global_role, roles.units)
    const also = counted(closed, 'link they gave closed', 'links they gave closed')
    await record(trx, caller.actor, 'people.roles', `${person.email} is now ${summary}${also ? ` (${also})` : ''}`)
  })
  return { person: (await loadPerson(db, id))! }
}
