// One-time secrets and safe retries: an answer kept for an Idempotency-Key never holds the secret it showed (a new
// key, an invite or reset link, recovery codes, an authenticator secret), so none of them is in the database file,
// its WAL or a backup, and a replay answers the resource without it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Secret, TOTP } from 'otpauth'
import { copyDatabase } from '#server/backups/copy.ts'
import { PASSWORD, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'

let s: TestServer
let owner: { id: number; email: string; cookie: string }
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

/** The same POST twice with one Idempotency-Key: the first answer and the replay. */
async function twice(path: string, json: unknown, key: string) {
  const send = () => s.req('POST', path, { cookie: owner.cookie, json, headers: { 'idempotency-key': key } })
  // A session may have to confirm its password before showing a secret (where the service asks it); harmless otherwise.
  await s.req('POST', '/api/admin/account/confirm', { cookie: owner.cookie, json: { password: PASSWORD } })
  const first = await send()
  const again = await send()
  expect(again.headers.get('idempotent-replayed')).toBe('true')
  expect(again.status).toBe(first.status)
  return { first: first.body, again: again.body }
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1)

describe('Idempotency-Key and one-time secrets', () => {
  it('keeps no secret: not in the database, its WAL or a backup, and a replay answers without it', async () => {
    const secrets: string[] = []

    const key = await twice('/api/admin/keys', { label: 'Retry', scopes: ['leads:read'] }, 'secret-key')
    expect(key.first.key).toBeString()
    expect(key.again).toEqual({ ...key.first, key: undefined })
    secrets.push(key.first.key)

    const invite = await twice('/api/admin/people/invite', { email: uniqueEmail('invitee'), global_role: 'admin' }, 'secret-invite')
    expect(invite.again).toEqual({ ...invite.first, url: undefined })
    secrets.push(tokenOf(invite.first.url))

    const person = await s.person(ROLES.packLeader)
    const reset = await twice(`/api/admin/people/${person.id}/reset`, {}, 'secret-reset')
    expect(reset.again).toEqual({ ...reset.first, url: undefined })
    secrets.push(tokenOf(reset.first.url))

    const totp = await twice('/api/admin/account/totp', undefined, 'secret-totp')
    expect(totp.again).toEqual({})
    const code = new TOTP({ secret: Secret.fromBase32(totp.first.secret) }).generate()
    const confirmed = await twice('/api/admin/account/totp/confirm', { code }, 'secret-confirm')
    expect(confirmed.first.recovery_codes).toHaveLength(10)
    expect(confirmed.again).toEqual({})
    secrets.push(...confirmed.first.recovery_codes)

    const renewed = await twice('/api/admin/account/recovery-codes', { password: PASSWORD }, 'secret-codes')
    expect(renewed.first.recovery_codes).toHaveLength(10)
    expect(renewed.again).toEqual({})
    secrets.push(...renewed.first.recovery_codes)

    // The authenticator's secret must stay in the database (to check codes), but not in a kept answer.
    const kept = await s.db.selectFrom('idempotency_keys').select('body').execute()
    expect(kept.map((k) => Buffer.from(k.body).toString()).join('\n')).not.toContain(totp.first.secret)

    const backup = path.join(s.dir, 'backup.db')
    await copyDatabase(s.db, backup)
    const file = path.join(s.dir, 'site.db')
    for (const where of [file, `${file}-wal`, backup]) {
      const bytes = readFileSync(where)
      for (const secret of secrets) expect({ where, secret, found: bytes.includes(secret) }).toEqual({ where, secret, found: false })
    }
  })
})

describe('Idempotency-Key from clients whose address is unknown', () => {
  it('never replays one stranger the answer kept for another', async () => {
    // From loopback with X-Forwarded-For and no TRUST_PROXY, the client is unknown.
    const join = (email: string) =>
      s.req('POST', '/api/join', {
        json: { parent_name: 'A parent', email, unit: 'pack' },
        headers: { 'idempotency-key': 'same-key', 'x-forwarded-for': '203.0.113.9' },
      })
    const a = await join(uniqueEmail('a'))
    const b = await join(uniqueEmail('b'))
    expect([a.status, b.status]).toEqual([201, 201])
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    expect(await s.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'same-key').execute()).toHaveLength(0)
  })
})
