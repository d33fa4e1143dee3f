// One-time links live only as long as their issuer could issue them: a promotion closes the promoted person's
// reset links, disabling or demoting someone closes the links they gave and revokes their keys, revoking a key
// closes what it gave, and using a link checks its issuer's credential as it is now.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, promises as fs, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { FileMigrationProvider, Migrator } from 'kysely'
import { openDatabase } from '../../server/db/client.ts'
import { PASSWORD, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'

let s: TestServer
let owner: { id: number; cookie: string }
let packId: number
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
  packId = (await s.db.selectFrom('units').select('id').where('slug', '=', 'pack').executeTakeFirstOrThrow()).id
})
afterAll(() => s.stop())

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1)
const useReset = (url: string) => s.req('POST', `/api/reset/${tokenOf(url)}`, { json: { password: 'a brand new password' } })
const acceptInvite = (url: string) => s.req('POST', `/api/invite/${tokenOf(url)}`, { json: { password: 'a brand new password' } })
const resetFor = async (auth: { cookie?: string; key?: string }, personId: number) => {
  const res = await s.req('POST', `/api/admin/people/${personId}/reset`, { ...auth })
  expect(res.status).toBe(201)
  return res.body.url as string
}
const inviteAs = async (auth: { cookie?: string; key?: string }, json: Record<string, unknown>) => {
  const res = await s.req('POST', '/api/admin/people/invite', { ...auth, json })
  expect(res.status).toBe(201)
  return res.body as { id: number; url: string }
}
const roles = (id: number, json: Record<string, unknown>) => s.req('PUT', `/api/admin/people/${id}/roles`, { cookie: owner.cookie, json })
const openInviteIds = async () => (await s.req('GET', '/api/admin/people', { cookie: owner.cookie })).body.invites.map((i: any) => i.id)

describe('a reset link and a promotion', () => {
  it('closes the reset link an admin gave a leader once an owner makes that leader an owner (410), session or scoped key', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['people:invite_admin', 'people:invite_leader'])
    for (const auth of [{ cookie: admin.cookie }, { key }]) {
      const leader = await s.person(ROLES.packLeader)
      const url = await resetFor(auth, leader.id)
      expect((await roles(leader.id, { global_role: 'owner', units: [] })).status).toBe(200)
      expect((await useReset(url)).status).toBe(410)
      // The old password still works, and nobody else now holds the owner account.
      expect((await s.req('POST', '/login', { json: { email: leader.email, password: PASSWORD } })).status).toBe(200)
    }
  })

  it('closes it for any new or higher role (member to leader, a second unit, admin to owner), not for a title or a lower role', async () => {
    const admin = await s.as(ROLES.admin)
    const troopId = (await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()).id
    const cases: [Record<string, unknown>, Record<string, unknown>, boolean][] = [
      [{ units: [{ unit_id: packId, role: 'member' }] }, { units: [{ unit_id: packId, role: 'leader' }] }, true],
      [
        { units: [{ unit_id: packId, role: 'member' }] },
        {
          units: [
            { unit_id: packId, role: 'member' },
            { unit_id: troopId, role: 'member' },
          ],
        },
        true,
      ],
      [{ units: [{ unit_id: packId, role: 'leader' }] }, { units: [{ unit_id: packId, role: 'leader', title: 'Cubmaster' }] }, false],
      [{ units: [{ unit_id: packId, role: 'leader' }] }, { units: [{ unit_id: packId, role: 'member' }] }, false],
    ]
    for (const [from, to, closes] of cases) {
      const person = await s.person({})
      expect((await roles(person.id, { global_role: null, ...from })).status).toBe(200)
      const url = await resetFor({ cookie: admin.cookie }, person.id)
      expect((await roles(person.id, { global_role: null, ...to })).status).toBe(200)
      expect((await useReset(url)).status, JSON.stringify([from, to])).toBe(closes ? 410 : 200)
    }
    const otherAdmin = await s.person(ROLES.admin)
    const url = await resetFor({ cookie: owner.cookie }, otherAdmin.id)
    expect((await roles(otherAdmin.id, { global_role: 'owner', units: [] })).status).toBe(200)
    expect((await useReset(url)).status).toBe(410)
  })
})

describe('using a link checks its issuer as they are now', () => {
  it('answers 410 when the issuer lost the right since, even when nothing closed the link (roles changed by hand)', async () => {
    const admin = await s.as(ROLES.admin)
    const leader = await s.person(ROLES.packLeader)
    const reset = await resetFor({ cookie: admin.cookie }, leader.id)
    const invite = await inviteAs({ cookie: admin.cookie }, { email: uniqueEmail(), global_role: 'admin' })
    await s.db.updateTable('people').set({ global_role: null }).where('id', '=', admin.id).execute()
    expect((await useReset(reset)).status).toBe(410)
    expect((await acceptInvite(invite.url)).status).toBe(410)
    // Given the right back, the same links work again: nothing else closed them.
    await s.db.updateTable('people').set({ global_role: 'admin' }).where('id', '=', admin.id).execute()
    expect((await useReset(reset)).status).toBe(200)
    expect((await acceptInvite(invite.url)).status).toBe(201)
  })

  it('answers 410 for a link given with a key that has expired since, or whose scopes no longer cover it', async () => {
    const admin = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(admin.cookie, ['people:invite_admin', 'people:invite_leader'])
    const member = await s.person(ROLES.member)
    const url = await resetFor({ key }, member.id)
    await s.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute()
    expect((await useReset(url)).status).toBe(410)
    const narrow = await s.mintKey(admin.cookie, ['people:invite_leader'])
    const invite = await inviteAs({ key: narrow.key }, { email: uniqueEmail(), units: [{ unit_id: packId, role: 'member' }] })
    await s.db.updateTable('api_keys').set({ scopes: '["leads:read"]' }).where('id', '=', narrow.id).execute()
    expect((await acceptInvite(invite.url)).status).toBe(410)
  })
})

describe('disabling or demoting an issuer', () => {
  it('revokes the invites and reset links a disabled admin gave: the sleeper invite no longer makes an admin (410)', async () => {
    const admin = await s.as(ROLES.admin)
    const sleeper = await inviteAs({ cookie: admin.cookie }, { email: uniqueEmail('sleeper'), global_role: 'admin' })
    const member = await s.person(ROLES.member)
    const reset = await resetFor({ cookie: admin.cookie }, member.id)
    expect(await openInviteIds()).toContain(sleeper.id)
    expect((await s.req('POST', `/api/admin/people/${admin.id}/disable`, { cookie: owner.cookie })).status).toBe(200)
    expect(await openInviteIds()).not.toContain(sleeper.id)
    expect((await acceptInvite(sleeper.url)).status).toBe(410)
    expect((await useReset(reset)).status).toBe(410)
    expect((await s.lastLog('people.disable')).summary).toContain('2 links they gave closed')
  })

  it('revokes what a person gave when a roles change takes a role away', async () => {
    const admin = await s.as(ROLES.admin)
    const invite = await inviteAs({ cookie: admin.cookie }, { email: uniqueEmail(), units: [{ unit_id: packId, role: 'member' }] })
    expect((await roles(admin.id, { global_role: null, units: [{ unit_id: packId, role: 'leader' }] })).status).toBe(200)
    expect(await openInviteIds()).not.toContain(invite.id)
    expect((await acceptInvite(invite.url)).status).toBe(410)
  })

  it('revokes a disabled person’s keys for good: enabled again, the old keys stay revoked (401)', async () => {
    const leader = await s.as(ROLES.packLeader)
    const { id, key } = await s.mintKey(leader.cookie, ['leads:read'])
    expect((await s.req('GET', '/api/admin/whoami', { key })).status).toBe(200)
    expect((await s.req('POST', `/api/admin/people/${leader.id}/disable`, { cookie: owner.cookie })).status).toBe(200)
    expect((await s.req('POST', `/api/admin/people/${leader.id}/enable`, { cookie: owner.cookie })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/whoami', { key })).status).toBe(401)
    const row = await s.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.revoked_at).not.toBeNull()
    const cookie = await s.signIn(leader.email)
    const listed = (await s.req('GET', '/api/admin/keys', { cookie })).body.keys
    expect(listed.find((k: any) => k.id === id).state).toBe('revoked')
  })
})

describe('revoking a key', () => {
  it('closes the invites and reset links the key gave, and leaves those its person gave signed in', async () => {
    const admin = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(admin.cookie, ['people:invite_admin', 'people:invite_leader'])
    const byKey = await inviteAs({ key }, { email: uniqueEmail(), units: [{ unit_id: packId, role: 'member' }] })
    const bySession = await inviteAs({ cookie: admin.cookie }, { email: uniqueEmail(), units: [{ unit_id: packId, role: 'member' }] })
    expect((await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: admin.cookie })).status).toBe(200)
    expect((await s.lastLog('keys.revoke')).summary).toContain('closed the link it gave')
    expect((await acceptInvite(byKey.url)).status).toBe(410)
    expect((await acceptInvite(bySession.url)).status).toBe(201)
  })
})

describe('migration 0013', () => {
  it('finds the issuer of links given before it from the recorded actor (an email, or a key with its id)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'issuers-'))
    const db = openDatabase(path.join(dir, 'site.db'))
    try {
      const migrator = new Migrator({
        db,
        provider: new FileMigrationProvider({ fs, path, migrationFolder: path.join(import.meta.dir, '../../server/db/migrations') }),
      })
      expect((await migrator.migrateTo('2026-11-23T0012-backups')).error).toBeUndefined()
      const now = new Date().toISOString()
      const later = new Date(Date.now() + 86_400_000).toISOString()
      const person = async (email: string) =>
        (
          await db
            .insertInto('people')
            .values({ email, name: null, password_hash: 'x', global_role: 'admin', created_at: now })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      const admin = await person('admin@example.org')
      const keyOwner = await person('scripts@example.org')
      await db
        .insertInto('api_keys')
        .values({ id: 7, person_id: keyOwner, label: 'nightly #2 (weekly)', scopes: '[]', token_hash: 'k', hint: 'abcd', created_at: now })
        .execute()
      const invite = (invited_by: string, token: string) =>
        db
          .insertInto('invites' as any)
          .values({
            token_hash: token,
            email: `${token}@example.org`,
            global_role: null,
            units: '[]',
            invited_by,
            created_at: now,
            expires_at: later,
          })
          .execute()
      await invite('admin@example.org', 'a')
      await invite('key:nightly #2 (weekly)#7 (scripts@example.org)', 'b')
      await invite('someone-gone@example.org', 'c')
      await invite('key:stolen#8 (admin@example.org)', 'd')
      expect((await migrator.migrateToLatest()).error).toBeUndefined()
      const rows = await db
        .selectFrom('invites')
        .select(['token_hash', 'issuer_person_id', 'issuer_key_id'])
        .orderBy('token_hash')
        .execute()
      expect(rows).toEqual([
        { token_hash: 'a', issuer_person_id: admin, issuer_key_id: null },
        { token_hash: 'b', issuer_person_id: keyOwner, issuer_key_id: 7 },
        { token_hash: 'c', issuer_person_id: null, issuer_key_id: null },
        { token_hash: 'd', issuer_person_id: null, issuer_key_id: null },
      ])
    } finally {
      await db.destroy()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
