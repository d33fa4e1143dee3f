// Grant, reset, role and disable checks read the credential (a key's scopes ∩ its owner's capabilities), never the
// person's role alone: every people route × owner session, owner key with each single scope, admin session and
// admin key × target member, leader, admin and owner.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { CAPABILITIES, type Capability, ROLE_CAPABILITIES, UNSCOPABLE } from '../../server/auth/capabilities.ts'
import { ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'

type Target = 'member' | 'leader' | 'admin' | 'owner'
const TARGETS: Target[] = ['member', 'leader', 'admin', 'owner']

interface Credential {
  name: string
  auth: { cookie?: string; key?: string }
  holds: (c: Capability) => boolean
}

let s: TestServer
let owner: { id: number; cookie: string }
let packId: number
const credentials: Credential[] = []
const people: Record<Target, { id: number }> = {} as never

/** The roles an invite grants, and the roles a target person holds. */
const grantOf = (target: Target, unit: number) =>
  target === 'member' || target === 'leader' ? { units: [{ unit_id: unit, role: target }] } : { global_role: target, units: [] }

beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
  packId = (await s.db.selectFrom('units').select('id').where('slug', '=', 'pack').executeTakeFirstOrThrow()).id
  const admin = await s.as(ROLES.admin)
  people.member = await s.person(ROLES.member)
  people.leader = await s.person(ROLES.packLeader)
  people.admin = await s.person(ROLES.admin)
  people.owner = await s.person(ROLES.owner)

  const ownerHolds = new Set(ROLE_CAPABILITIES.owner)
  const adminHolds = new Set(ROLE_CAPABILITIES.admin)
  credentials.push({ name: 'owner session', auth: { cookie: owner.cookie }, holds: (c) => ownerHolds.has(c) })
  for (const scope of CAPABILITIES.filter((c) => !UNSCOPABLE.includes(c))) {
    const { key } = await s.mintKey(owner.cookie, [scope])
    credentials.push({ name: `owner key with ${scope}`, auth: { key }, holds: (c) => c === scope })
  }
  credentials.push({ name: 'admin session', auth: { cookie: admin.cookie }, holds: (c) => adminHolds.has(c) })
  const adminScopes = [...adminHolds].filter((c) => !UNSCOPABLE.includes(c))
  const { key } = await s.mintKey(admin.cookie, adminScopes)
  credentials.push({ name: 'admin key with every scope it may carry', auth: { key }, holds: (c) => adminScopes.includes(c) })
})
afterAll(() => s.stop())

/** What the specification allows: the route's capability, then what granting (or taking over) the target's roles needs. */
function mayGrant(cred: Credential, target: Target): boolean {
  if (target === 'owner') return cred.holds('people:manage')
  if (target === 'admin') return cred.holds('people:invite_admin')
  return cred.holds('people:invite_leader')
}

const expected = {
  invite: (c: Credential, t: Target) => (c.holds('people:invite_leader') && mayGrant(c, t) ? 201 : 403),
  revoke: (c: Credential, t: Target) => (c.holds('people:invite_leader') && mayGrant(c, t) ? 200 : 403),
  reset: (c: Credential, t: Target) => (c.holds('people:invite_admin') && mayGrant(c, t) ? 201 : 403),
  manage: (c: Credential) => (c.holds('people:manage') ? 200 : 403),
}

describe('people routes by credential and target', () => {
  it('POST /api/admin/people/invite grants only what the credential may grant; a refused invite writes nothing', async () => {
    const table: string[] = []
    for (const cred of credentials)
      for (const target of TARGETS) {
        const email = uniqueEmail('grant')
        const res = await s.req('POST', '/api/admin/people/invite', { ...cred.auth, json: { email, ...grantOf(target, packId) } })
        table.push(`${cred.name} → ${target}: ${res.status}`)
        if (res.status !== 201) expect(await s.db.selectFrom('invites').select('id').where('email', '=', email).execute()).toEqual([])
      }
    expect(table).toEqual(credentials.flatMap((c) => TARGETS.map((t) => `${c.name} → ${t}: ${expected.invite(c, t)}`)))
  })

  it('DELETE /api/admin/people/invite/:id takes back only what the credential could grant', async () => {
    const table: string[] = []
    for (const cred of credentials)
      for (const target of TARGETS) {
        const invite = await s.req('POST', '/api/admin/people/invite', {
          cookie: owner.cookie,
          json: { email: uniqueEmail('revoke'), ...grantOf(target, packId) },
        })
        expect(invite.status).toBe(201)
        const res = await s.req('DELETE', `/api/admin/people/invite/${invite.body.id}`, cred.auth)
        table.push(`${cred.name} → ${target}: ${res.status}`)
      }
    expect(table).toEqual(credentials.flatMap((c) => TARGETS.map((t) => `${c.name} → ${t}: ${expected.revoke(c, t)}`)))
  })

  it('POST /api/admin/people/invite replacing an open invite follows the revoking rule', async () => {
    const table: string[] = []
    for (const cred of credentials.filter((c) => c.holds('people:invite_leader')))
      for (const target of TARGETS) {
        const email = uniqueEmail('replace')
        const first = await s.req('POST', '/api/admin/people/invite', { cookie: owner.cookie, json: { email, ...grantOf(target, packId) } })
        expect(first.status).toBe(201)
        const res = await s.req('POST', '/api/admin/people/invite', {
          ...cred.auth,
          json: { email, units: [{ unit_id: packId, role: 'member' }] },
        })
        table.push(`${cred.name} → ${target}: ${res.status}`)
        const open = await s.db.selectFrom('invites').select('id').where('email', '=', email).where('revoked_at', 'is', null).execute()
        expect(open.map((i) => i.id)).toEqual(res.status === 201 ? [res.body.id] : [first.body.id])
      }
    expect(table).toEqual(
      credentials
        .filter((c) => c.holds('people:invite_leader'))
        .flatMap((c) => TARGETS.map((t) => `${c.name} → ${t}: ${expected.invite(c, t)}`)),
    )
  })

  it('POST /api/admin/people/:id/reset issues a link only for someone whose roles the credential could grant', async () => {
    const table: string[] = []
    for (const cred of credentials)
      for (const target of TARGETS) {
        const res = await s.req('POST', `/api/admin/people/${people[target].id}/reset`, cred.auth)
        table.push(`${cred.name} → ${target}: ${res.status}`)
        if (res.status === 201) expect(res.body.url).toContain('/reset/')
      }
    expect(table).toEqual(credentials.flatMap((c) => TARGETS.map((t) => `${c.name} → ${t}: ${expected.reset(c, t)}`)))
  })

  it('PUT roles, POST disable and POST enable need people:manage, which only a signed-in owner holds', async () => {
    const table: string[] = []
    for (const cred of credentials)
      for (const target of TARGETS) {
        const id = people[target].id
        const roles = await s.req('PUT', `/api/admin/people/${id}/roles`, {
          ...cred.auth,
          json: { global_role: null, ...grantOf(target, packId) },
        })
        const disable = await s.req('POST', `/api/admin/people/${id}/disable`, cred.auth)
        const enable = await s.req('POST', `/api/admin/people/${id}/enable`, cred.auth)
        if (disable.status === 200) expect(enable.status).toBe(200) // leave the target enabled for the next credential
        table.push(`${cred.name} → ${target}: roles ${roles.status}, disable ${disable.status}, enable ${enable.status}`)
      }
    expect(table).toEqual(
      credentials.flatMap((c) =>
        TARGETS.map((t) => {
          const code = expected.manage(c)
          return `${c.name} → ${t}: roles ${code}, disable ${code}, enable ${code}`
        }),
      ),
    )
  })
})

describe('the two escalations found by the review', () => {
  it("an owner's key scoped to people:invite_leader cannot invite an owner, so no one gets owner from it", async () => {
    const { key } = await s.mintKey(owner.cookie, ['people:invite_leader'])
    const res = await s.req('POST', '/api/admin/people/invite', { key, json: { email: uniqueEmail('escalate'), global_role: 'owner' } })
    expect(res.status).toBe(403)
    expect(res.body.detail).toContain('people:manage')
  })

  it('a key scoped to people:invite_admin cannot issue a reset link for an owner', async () => {
    const { key } = await s.mintKey(owner.cookie, ['people:invite_admin'])
    const res = await s.req('POST', `/api/admin/people/${people.owner.id}/reset`, { key })
    expect(res.status).toBe(403)
    expect(
      await s.db
        .selectFrom('reset_links')
        .select('id')
        .where('person_id', '=', people.owner.id)
        .where('created_by', 'like', 'key:%')
        .execute(),
    ).toEqual([])
  })
})
