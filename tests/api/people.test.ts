// People: list, invite revocation, disable/enable, reset links, roles, and your own account.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { assertAnotherOwner } from '../../server/people/guards.ts'
import { ADMIN_TOKEN, PASSWORD, ROLES, startServer, type TestServer, uniqueEmail, withServer } from '../helpers.ts'

let s: TestServer
let owner: { id: number; email: string; cookie: string }
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

const post = (path: string, creds: { cookie?: string; token?: string; key?: string }, json?: unknown) =>
  s.req('POST', path, { ...creds, json })
const whoami = (cookie: string) => s.req('GET', '/api/admin/whoami', { cookie })

describe('GET /api/admin/people', () => {
  it('answers by credential: anonymous 401, member 403, break-glass 403, leader/admin/owner 200', async () => {
    expect((await s.req('GET', '/api/admin/people')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/people', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/people', { token: ADMIN_TOKEN })).status).toBe(403)
    for (const role of [ROLES.packLeader, ROLES.admin, ROLES.owner])
      expect((await s.req('GET', '/api/admin/people', { cookie: (await s.as(role)).cookie })).status).toBe(200)
  })

  it('lists people with roles, sessions and keys, open invites, and what the caller may grant', async () => {
    const leader = await s.as({ units: [{ slug: 'pack', role: 'leader', title: 'Cubmaster' }] })
    await s.mintKey(leader.cookie, ['leads:read'])
    await s.req('POST', '/api/admin/people/invite', { cookie: leader.cookie, json: { email: 'pending@example.org' } })
    const res = await s.req('GET', '/api/admin/people', { cookie: leader.cookie })
    const me = res.body.people.find((p: any) => p.id === leader.id)
    expect(me.units[0]).toMatchObject({ slug: 'pack', role: 'leader', title: 'Cubmaster' })
    expect(me.sessions.length).toBe(1)
    expect(me.keys[0]).toMatchObject({ label: 'test key', state: 'active' })
    expect(JSON.stringify(res.body)).not.toMatch(/password_hash|token_hash/)
    expect(res.body.invites.some((i: any) => i.email === 'pending@example.org')).toBe(true)
    expect(res.body.grantable.global_roles).toEqual([])
    expect(res.body.grantable.units.map((u: any) => u.slug)).toEqual(['pack'])
    const admin = await s.as(ROLES.admin)
    expect((await s.req('GET', '/api/admin/people', { cookie: admin.cookie })).body.grantable.global_roles).toEqual(['admin'])
    expect((await s.req('GET', '/api/admin/people', { cookie: owner.cookie })).body.grantable.global_roles).toEqual(['owner', 'admin'])
  })
})

describe('GET /api/admin/people: session addresses', () => {
  it('shows where and on what someone is signed in only to themselves and people:manage; a leader sees the count and times', async () => {
    const leader = await s.as(ROLES.packLeader)
    const family = await s.as(ROLES.member)
    const view = async (cookie: string, id: number) =>
      (await s.req('GET', '/api/admin/people', { cookie })).body.people.find((p: any) => p.id === id).sessions as any[]
    const seenByLeader = await view(leader.cookie, family.id)
    expect(seenByLeader.length).toBe(1)
    expect(Object.keys(seenByLeader[0]).sort()).toEqual(['created_at', 'id', 'last_seen_at'])
    expect((await view(leader.cookie, leader.id))[0]).toHaveProperty('address')
    expect((await view(owner.cookie, family.id))[0]).toHaveProperty('user_agent')
    const admin = await s.as(ROLES.admin)
    expect((await view(admin.cookie, family.id))[0]).not.toHaveProperty('address')
  })
})

describe('GET /api/admin/people/:id', () => {
  const one = (id: number | string, creds: { cookie?: string; token?: string }) => s.req('GET', `/api/admin/people/${id}`, creds)

  it('answers one person as the people list shows them to the same caller, sessions trimmed alike', async () => {
    const leader = await s.as({ units: [{ slug: 'pack', role: 'leader', title: 'Akela' }] })
    await s.mintKey(leader.cookie, ['leads:read'])
    const family = await s.as(ROLES.member)
    const list = (await s.req('GET', '/api/admin/people', { cookie: leader.cookie })).body.people
    for (const id of [leader.id, family.id, owner.id]) {
      const res = await one(id, { cookie: leader.cookie })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(list.find((p: any) => p.id === id))
    }
    expect((await one(leader.id, { cookie: leader.cookie })).body.keys[0]).toMatchObject({ label: 'test key', state: 'active' })
    expect(Object.keys((await one(family.id, { cookie: leader.cookie })).body.sessions[0]).sort()).toEqual([
      'created_at',
      'id',
      'last_seen_at',
    ])
    expect((await one(family.id, { cookie: owner.cookie })).body.sessions[0]).toHaveProperty('user_agent')
  })

  it('answers 404 for an unknown person; 401 anonymous, 403 to a family account and to the break-glass token', async () => {
    const family = await s.as(ROLES.member)
    expect((await one(999999, { cookie: owner.cookie })).status).toBe(404)
    expect((await one('abc', { cookie: owner.cookie })).status).toBe(404)
    expect((await one(owner.id, {})).status).toBe(401)
    expect((await one(owner.id, { cookie: family.cookie })).status).toBe(403)
    expect((await one(family.id, { cookie: family.cookie })).status).toBe(403)
    expect((await one(owner.id, { token: ADMIN_TOKEN })).status).toBe(403)
  })

  it('is now a known path: another method is 405 with Allow, and the actions under it keep their own methods', async () => {
    const patch = await s.req('PATCH', `/api/admin/people/${owner.id}`, { cookie: owner.cookie, json: { name: 'x' } })
    expect(patch.status).toBe(405)
    expect(patch.headers.get('allow')).toBe('GET')
    const roles = await s.req('GET', `/api/admin/people/${owner.id}/roles`, { cookie: owner.cookie })
    expect(roles.status).toBe(405)
    expect(roles.headers.get('allow')).toBe('PUT')
  })
})

describe('DELETE /api/admin/people/invite/:id', () => {
  it('revokes an open invite (200; the link then gives 410), repeat 404; a leader cannot revoke an admin invite (403)', async () => {
    const admin = await s.as(ROLES.admin)
    const invite = (await s.req('POST', '/api/admin/people/invite', { cookie: admin.cookie, json: { email: uniqueEmail() } })).body
    expect((await s.req('DELETE', `/api/admin/people/invite/${invite.id}`, { cookie: admin.cookie })).status).toBe(200)
    expect((await s.req('DELETE', `/api/admin/people/invite/${invite.id}`, { cookie: admin.cookie })).status).toBe(404)
    expect((await s.req('POST', `/api/invite/${invite.url.split('/invite/')[1]}`, { json: { password: 'a good password' } })).status).toBe(
      410,
    )
    const adminInvite = (
      await s.req('POST', '/api/admin/people/invite', { cookie: admin.cookie, json: { email: uniqueEmail(), global_role: 'admin' } })
    ).body
    const leader = await s.as(ROLES.packLeader)
    expect((await s.req('DELETE', `/api/admin/people/invite/${adminInvite.id}`, { cookie: leader.cookie })).status).toBe(403)
    expect((await s.req('DELETE', '/api/admin/people/invite/999999', { cookie: admin.cookie })).status).toBe(404)
  })
})

describe('POST /api/admin/people/:id/disable and /enable', () => {
  it('is owner only: admin, leader and break-glass 403; unknown 404', async () => {
    const target = await s.person(ROLES.member)
    expect((await post(`/api/admin/people/${target.id}/disable`, { cookie: (await s.as(ROLES.admin)).cookie })).status).toBe(403)
    expect((await post(`/api/admin/people/${target.id}/disable`, { cookie: (await s.as(ROLES.packLeader)).cookie })).status).toBe(403)
    expect((await post(`/api/admin/people/${target.id}/disable`, { token: ADMIN_TOKEN })).status).toBe(403)
    expect((await post('/api/admin/people/999999/disable', { cookie: owner.cookie })).status).toBe(404)
  })

  it('ends sessions, stops keys, closes reset links and keeps the row; after enable a new session works', async () => {
    const target = await s.as(ROLES.admin)
    const { key } = await s.mintKey(target.cookie, ['leads:read'])
    const reset = (await post(`/api/admin/people/${target.id}/reset`, { cookie: owner.cookie })).body
    const res = await post(`/api/admin/people/${target.id}/disable`, { cookie: owner.cookie })
    expect(res.status).toBe(200)
    expect((await whoami(target.cookie)).status).toBe(401)
    expect((await s.req('GET', '/api/admin/whoami', { key })).status).toBe(401)
    expect((await s.req('POST', `/api/reset/${reset.url.split('/reset/')[1]}`, { json: { password: 'a new password' } })).status).toBe(410)
    expect((await s.req('POST', '/login', { json: { email: target.email, password: PASSWORD } })).status).toBe(403)
    const listed = (await s.req('GET', '/api/admin/people', { cookie: owner.cookie })).body.people.find((p: any) => p.id === target.id)
    expect(listed.disabled).toBe(true)
    expect((await post(`/api/admin/people/${target.id}/enable`, { cookie: owner.cookie })).status).toBe(200)
    const fresh = await s.signIn(target.email)
    expect((await whoami(fresh)).status).toBe(200)
    expect((await post(`/api/admin/people/${target.id}/enable`, { cookie: (await s.as(ROLES.admin)).cookie })).status).toBe(403)
    const kinds = (await s.db.selectFrom('action_log').select('kind').where('summary', 'like', `%${target.email}%`).execute()).map(
      (k) => k.kind,
    )
    expect(kinds).toEqual(expect.arrayContaining(['people.disable', 'people.enable']))
  })

  it('refuses disabling yourself with 403', async () => {
    expect((await post(`/api/admin/people/${owner.id}/disable`, { cookie: owner.cookie })).status).toBe(403)
    expect((await whoami(owner.cookie)).status).toBe(200)
  })

  it('guards the last enabled owner with 409 (an owner can only reach it through a role change, tested below)', async () => {
    await withServer({}, async (solo) => {
      const only = await solo.person(ROLES.owner)
      const disabledOwner = await solo.person(ROLES.owner)
      await solo.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', disabledOwner.id).execute()
      const error = await assertAnotherOwner(solo.db, only.id, 'Disabling this owner').catch((e) => e)
      expect(error.status).toBe(409)
      expect(await assertAnotherOwner(solo.db, disabledOwner.id, 'x')).toBeUndefined()
    })
  })
})

describe('POST /api/admin/people/:id/reset and POST /api/reset/:token', () => {
  it('answers 201 with a one-time URL valid 24 hours; the old password works until it is used; using it ends every session', async () => {
    const admin = await s.as(ROLES.admin)
    const leader = await s.as(ROLES.packLeader)
    const res = await post(`/api/admin/people/${leader.id}/reset`, { cookie: admin.cookie })
    expect(res.status).toBe(201)
    expect(res.body.url).toMatch(/^http:\/\/127\.0\.0\.1:1\/reset\/[\w-]{40,}$/)
    const hours = (Date.parse(res.body.expires_at) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23.99)
    expect(hours).toBeLessThan(24.01)
    const second = await s.signIn(leader.email)
    expect((await whoami(second)).status).toBe(200)
    const token = res.body.url.split('/reset/')[1]
    expect((await s.req('POST', `/api/reset/${token}`, { json: { password: 'short' } })).status).toBe(422)
    expect((await s.req('POST', `/api/reset/${token}`, { json: { password: 'a brand new password' } })).status).toBe(200)
    expect((await whoami(leader.cookie)).status).toBe(401)
    expect((await whoami(second)).status).toBe(401)
    expect((await s.req('POST', '/login', { json: { email: leader.email, password: PASSWORD } })).status).toBe(401)
    expect((await s.signIn(leader.email, 'a brand new password')).startsWith('site_session=')).toBe(true)
    expect((await s.req('POST', `/api/reset/${token}`, { json: { password: 'yet another password' } })).status).toBe(410)
  })

  it('expires after 24 hours (410), unknown token 404', async () => {
    const target = await s.person(ROLES.member)
    const res = await post(`/api/admin/people/${target.id}/reset`, { cookie: owner.cookie })
    await s.db.updateTable('reset_links').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', res.body.id).execute()
    expect((await s.req('POST', `/api/reset/${res.body.url.split('/reset/')[1]}`, { json: { password: 'a good password' } })).status).toBe(
      410,
    )
    expect((await s.req('POST', '/api/reset/unknown-token', { json: { password: 'a good password' } })).status).toBe(404)
  })

  it('lets an admin reset anyone but an owner (403), an owner reset an admin; leader 403; unknown 404', async () => {
    const admin = await s.as(ROLES.admin)
    const otherOwner = await s.person(ROLES.owner)
    const otherAdmin = await s.person(ROLES.admin)
    expect((await post(`/api/admin/people/${otherOwner.id}/reset`, { cookie: admin.cookie })).status).toBe(403)
    expect((await post(`/api/admin/people/${otherAdmin.id}/reset`, { cookie: admin.cookie })).status).toBe(201)
    expect((await post(`/api/admin/people/${otherAdmin.id}/reset`, { cookie: owner.cookie })).status).toBe(201)
    expect((await post(`/api/admin/people/${otherAdmin.id}/reset`, { cookie: (await s.as(ROLES.packLeader)).cookie })).status).toBe(403)
    expect((await post(`/api/admin/people/${otherAdmin.id}/reset`, { token: ADMIN_TOKEN })).status).toBe(403)
    expect((await post('/api/admin/people/999999/reset', { cookie: owner.cookie })).status).toBe(404)
  })
})

describe('PUT /api/admin/people/:id/roles', () => {
  it('replaces the full list (owner only), narrowing capabilities at once', async () => {
    const target = await s.as({
      units: [
        { slug: 'pack', role: 'leader' },
        { slug: 'troop', role: 'member' },
      ],
    })
    const troop = await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()
    const res = await s.req('PUT', `/api/admin/people/${target.id}/roles`, {
      cookie: owner.cookie,
      json: { global_role: null, units: [{ unit_id: troop.id, role: 'leader', title: 'ASM' }] },
    })
    expect(res.status).toBe(200)
    expect(res.body.person.units).toEqual([{ unit_id: troop.id, slug: 'troop', role: 'leader', title: 'ASM' }])
    expect((await s.req('GET', '/api/admin/units', { cookie: target.cookie })).body.units.map((u: any) => u.slug)).toEqual(['troop'])
    expect(
      (await s.req('PUT', `/api/admin/people/${target.id}/roles`, { cookie: owner.cookie, json: { global_role: null, units: [] } })).status,
    ).toBe(200)
    expect((await s.req('GET', '/api/admin/units', { cookie: target.cookie })).status).toBe(403)
  })

  it('refuses a change that leaves zero enabled owners with 409, and allows it once another owner exists', async () => {
    await withServer({}, async (solo) => {
      const only = await solo.as(ROLES.owner)
      const disabledOwner = await solo.person(ROLES.owner)
      await solo.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', disabledOwner.id).execute()
      const demote = () =>
        solo.req('PUT', `/api/admin/people/${only.id}/roles`, { cookie: only.cookie, json: { global_role: 'admin', units: [] } })
      expect((await demote()).status).toBe(409)
      expect(
        (await solo.req('PUT', `/api/admin/people/${only.id}/roles`, { cookie: only.cookie, json: { global_role: null, units: [] } }))
          .status,
      ).toBe(409)
      await solo.person(ROLES.owner)
      expect((await demote()).status).toBe(200)
    })
  })

  it('answers 403 to an admin, 422 for an unknown unit or field, 404 for an unknown person', async () => {
    const target = await s.person(ROLES.member)
    expect(
      (
        await s.req('PUT', `/api/admin/people/${target.id}/roles`, {
          cookie: (await s.as(ROLES.admin)).cookie,
          json: { global_role: null, units: [] },
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await s.req('PUT', `/api/admin/people/${target.id}/roles`, {
          cookie: owner.cookie,
          json: { global_role: null, units: [{ unit_id: 999, role: 'member' }] },
        })
      ).status,
    ).toBe(422)
    expect(
      (await s.req('PUT', `/api/admin/people/${target.id}/roles`, { cookie: owner.cookie, json: { global_role: 'king', units: [] } }))
        .status,
    ).toBe(422)
    expect((await s.req('PUT', `/api/admin/people/${target.id}/roles`, { cookie: owner.cookie, json: { units: [] } })).status).toBe(422)
    expect(
      (await s.req('PUT', '/api/admin/people/999999/roles', { cookie: owner.cookie, json: { global_role: null, units: [] } })).status,
    ).toBe(404)
  })
})

describe('your own account', () => {
  it('changes the password with the current one (422 when wrong); other sessions end, this one stays', async () => {
    const me = await s.as(ROLES.member)
    const other = await s.signIn(me.email)
    expect(
      (
        await post(
          '/api/admin/account/password',
          { cookie: me.cookie },
          { current_password: 'wrong one', new_password: 'a fresh password' },
        )
      ).status,
    ).toBe(422)
    const res = await post(
      '/api/admin/account/password',
      { cookie: me.cookie },
      { current_password: PASSWORD, new_password: 'a fresh password' },
    )
    expect(res.status).toBe(200)
    expect(res.body.other_sessions_ended).toBe(1)
    expect((await whoami(me.cookie)).status).toBe(200)
    expect((await whoami(other)).status).toBe(401)
    expect((await s.signIn(me.email, 'a fresh password')).length).toBeGreaterThan(20)
  })

  it('closes your open reset links when you change your password, so an earlier link cannot undo it', async () => {
    const me = await s.as(ROLES.member)
    const link = await post(`/api/admin/people/${me.id}/reset`, { cookie: owner.cookie })
    expect(link.status).toBe(201)
    const changed = await post(
      '/api/admin/account/password',
      { cookie: me.cookie },
      { current_password: PASSWORD, new_password: 'mine and only mine' },
    )
    expect(changed.status).toBe(200)
    const token = link.body.url.split('/reset/')[1]
    expect((await s.req('POST', `/api/reset/${token}`, { json: { password: 'the attacker wins' } })).status).toBe(410)
    expect((await s.signIn(me.email, 'mine and only mine')).length).toBeGreaterThan(20)
  })

  it('lists your sessions with the current one marked, and ends one (someone else’s 404)', async () => {
    const me = await s.as(ROLES.member)
    const other = await s.signIn(me.email)
    const list = await s.req('GET', '/api/admin/account/sessions', { cookie: me.cookie })
    expect(list.body.sessions.length).toBe(2)
    const otherSession = list.body.sessions.find((x: any) => !x.current)
    expect((await s.req('DELETE', `/api/admin/account/sessions/${otherSession.id}`, { cookie: me.cookie })).status).toBe(200)
    expect((await whoami(other)).status).toBe(401)
    const stranger = await s.as(ROLES.member)
    const theirs = (await s.req('GET', '/api/admin/account/sessions', { cookie: stranger.cookie })).body.sessions[0]
    expect((await s.req('DELETE', `/api/admin/account/sessions/${theirs.id}`, { cookie: me.cookie })).status).toBe(404)
    expect((await s.req('GET', '/api/admin/account/sessions', { token: ADMIN_TOKEN })).status).toBe(403)
  })
})
