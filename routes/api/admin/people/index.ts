// GET /api/admin/people: everyone with an account, their roles, sessions and keys; open invites; what the caller may grant.
import { keyView } from '../../../../server/keys/queries.ts'
import { loadPeople } from '../../../../server/people/queries.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { nowIso } from '../../../../server/schemas.ts'

export const GET = defineRoute({
  auth: 'people:invite_leader',
  summary: 'Everyone with an account: roles, memberships, active sessions, keys; open invites; what you may grant',
  async handler({ db, caller }) {
    const now = nowIso()
    const sessions = await db
      .selectFrom('sessions')
      .select(['id', 'person_id', 'created_at', 'last_seen_at', 'address', 'user_agent'])
      .where('expires_at', '>', now)
      .execute()
    const keys = await db.selectFrom('api_keys').selectAll().orderBy('id', 'desc').execute()
    const me = caller.person!
    // Where and on what someone signs in is theirs and the owners' to see; others get the count.
    const seesSessionsOf = (id: number) => id === me.id || caller.capabilities.has('people:manage')
    const people = (await loadPeople(db)).map((p) => {
      const theirs = sessions.filter((s) => s.person_id === p.id)
      return {
        ...p,
        sessions: seesSessionsOf(p.id)
          ? theirs.map(({ person_id, ...s }) => s)
          : theirs.map(({ id, created_at, last_seen_at }) => ({ id, created_at, last_seen_at })),
        keys: keys.filter((k) => k.person_id === p.id).map(keyView),
      }
    })
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
        ? ['owner', 'admin']
        : caller.capabilities.has('people:invite_admin')
          ? ['admin']
          : [],
      units: units
        .filter((u) => me.global_role || me.units.some((m) => m.unit_id === u.id && m.role === 'leader'))
        .map((u) => ({ ...u, roles: ['member', 'leader'] })),
    }
    return { people, invites: invites.map((i) => ({ ...i, units: JSON.parse(i.units) })), grantable }
  },
})
