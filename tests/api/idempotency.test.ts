// Safe retries: a POST with an Idempotency-Key does its work once per credential and key, and a retry gets the first
// answer back marked Idempotent-Replayed; the same key with another body is 422; kept answers go after a day.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { forgetOldIdempotencyKeys, IDEMPOTENCY_WINDOW_MS } from '#server/http/idempotency.ts'
import { expectDetail, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'

let s: TestServer
let owner: { cookie: string }
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

const nearbyCount = async () => (await s.req('GET', '/api/admin/nearby', { cookie: owner.cookie })).body.nearby.length
const addNearby = (key: string, name: string, cookie = owner.cookie) =>
  s.req('POST', '/api/admin/nearby', { cookie, json: { name, unit_type: 'crew' }, headers: { 'idempotency-key': key } })

describe('Idempotency-Key', () => {
  it('does the work once and replays the first answer, status and body, marked Idempotent-Replayed', async () => {
    const before = await nearbyCount()
    const first = await addNearby('retry-1', 'Crew 1')
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const again = await addNearby('retry-1', 'Crew 1')
    expect([again.status, again.text]).toEqual([201, first.text])
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await nearbyCount()).toBe(before + 1)
    // Without a key, the same body is a second unit.
    expect((await s.req('POST', '/api/admin/nearby', { cookie: owner.cookie, json: { name: 'Crew 1', unit_type: 'crew' } })).status).toBe(
      201,
    )
    expect(await nearbyCount()).toBe(before + 2)
  })

  it('refuses the same key with another body: 422 idempotency_key_reused, nothing written', async () => {
    await addNearby('retry-2', 'Crew 2')
    const before = await nearbyCount()
    const other = await addNearby('retry-2', 'Crew 2b')
    expectDetail(other, 422)
    expect(other.body.code).toBe('idempotency_key_reused')
    expect(other.body.errors[0].field).toBe('Idempotency-Key')
    expect(await nearbyCount()).toBe(before)
  })

  it('keeps keys apart per credential: another session with the same key does its own work', async () => {
    const other = await s.as({ ...ROLES.owner, email: uniqueEmail('owner2') })
    const before = await nearbyCount()
    expect((await addNearby('retry-3', 'Crew 3')).status).toBe(201)
    const theirs = await addNearby('retry-3', 'Crew 3', other.cookie)
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get('idempotent-replayed')).toBeNull()
    expect(await nearbyCount()).toBe(before + 2)
  })

  it('lets a retry sent while the first still runs wait for it, then replay it', async () => {
    const before = await nearbyCount()
    const [a, b] = await Promise.all([addNearby('retry-4', 'Crew 4'), addNearby('retry-4', 'Crew 4')])
    expect([a.status, b.status]).toEqual([201, 201])
    expect(a.text).toBe(b.text)
    expect([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')].sort()).toEqual(['true', null].sort())
    expect(await nearbyCount()).toBe(before + 1)
  })

  it('keeps a refusal too, and refuses a malformed key', async () => {
    const bad = { cookie: owner.cookie, json: { unit_type: 'crew' }, headers: { 'idempotency-key': 'retry-5' } }
    const first = await s.req('POST', '/api/admin/nearby', bad)
    expectDetail(first, 422)
    const again = await s.req('POST', '/api/admin/nearby', bad)
    expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([422, first.text, 'true'])
    const malformed = await addNearby('x'.repeat(256), 'Crew 5')
    expectDetail(malformed, 422)
    expect(malformed.body.errors[0].field).toBe('Idempotency-Key')
  })

  it('forgets kept answers after a day (the nightly upkeep)', async () => {
    await addNearby('retry-6', 'Crew 6')
    const kept = () => s.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'retry-6').execute()
    await forgetOldIdempotencyKeys(s.db, Date.now() + IDEMPOTENCY_WINDOW_MS - 60_000)
    expect(await kept()).toHaveLength(1)
    await forgetOldIdempotencyKeys(s.db, Date.now() + IDEMPOTENCY_WINDOW_MS + 60_000)
    expect(await kept()).toHaveLength(0)
  })
})
