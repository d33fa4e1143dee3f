// Downstream faults: the spreadsheet endpoint, the CalDAV store and the publisher all hang at once. Each request
// is bounded by its timeout and answers as the specification says, and unrelated requests stay fast meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'

// A server that accepts connections and never answers.
const sockets: { end(): void }[] = []
const hanging = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open: (s) => void sockets.push(s), data() {} } })
const HANG = `http://127.0.0.1:${hanging.port}`

let s: TestServer
let leader: { cookie: string }
beforeAll(async () => {
  s = await startServer({ CALDAV_URL: `${HANG}/dav/units/`, CALDAV_USERNAME: 'site', CALDAV_PASSWORD: 'x', OUTBOUND_ALLOW: '127.0.0.1/32' })
  const admin = await s.as(ROLES.admin)
  leader = await s.as(ROLES.packLeader)
  await s.req('PUT', '/api/admin/settings/mirrors.spreadsheet_url', { cookie: admin.cookie, json: { value: `${HANG}/exec` } })
  await s.req('PUT', '/api/admin/settings/socialposts.control_url', { cookie: admin.cookie, json: { value: `${HANG}/control` } })
  const ingest = await s.req('POST', '/api/admin/socialposts/ingest', {
    token: ADMIN_TOKEN,
    json: {
      id: 'pack/hang',
      unit: 'pack',
      status: 'scheduled',
      message: 'x',
      scheduled_for: '2099-01-01T00:00:00Z',
      cancel_url: `${HANG}/cancel?sig=abc`,
    },
  })
  expect(ingest.status).toBe(200)
})
afterAll(async () => {
  await s.stop()
  for (const socket of sockets) socket.end()
  hanging.stop(true)
})

const timed = async <T>(work: Promise<T>) => {
  const start = Date.now()
  const result = await work
  return { result, ms: Date.now() - start }
}

describe('downstream faults', () => {
  it('bounds every call to a hanging service by its timeout, answers as specified, and never blocks unrelated requests', async () => {
    const joined = await timed(s.req('POST', '/api/join', { json: { parent_name: 'Hang Test', email: 'hang@example.org' } }))
    expect(joined.result.status).toBe(201)
    expect(joined.ms).toBeLessThan(1000)

    const slow = Promise.all([
      timed(s.req('POST', '/api/admin/mirrors/retry', { cookie: leader.cookie, json: { target: 'spreadsheet' } })),
      timed(s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })),
      timed(s.req('POST', '/api/admin/calendar', { cookie: leader.cookie, json: { title: 'x', date: '2099-01-01' } })),
      timed(s.req('POST', '/api/admin/socialposts/pack/hang/cancel', { cookie: leader.cookie })),
      timed(
        s.req('POST', '/api/admin/socialposts/pack/hang/reschedule', {
          cookie: leader.cookie,
          json: { message: 'y', scheduled_for: '2099-02-01T00:00:00Z' },
        }),
      ),
    ])
    // While all five wait on hanging services, everything else answers at once.
    const quick = []
    for (let i = 0; i < 10; i++) {
      quick.push((await timed(s.req('GET', '/api/admin/whoami', { cookie: leader.cookie }))).ms)
      quick.push((await timed(s.req('GET', '/api/admin/leads', { cookie: leader.cookie }))).ms)
      await Bun.sleep(200)
    }
    expect(Math.max(...quick)).toBeLessThan(500)

    const [retry, list, create, cancel, reschedule] = await slow
    expect(retry.result.status).toBe(200)
    expect(retry.result.body).toMatchObject({ attempted: 1, ok: 0, failed: 1 })
    // The list answers with the last good copy and a plain sentence; the writes answer 502.
    expect(list.result.status).toBe(200)
    expect(list.result.body.unreachable.detail).toContain('not answering')
    for (const call of [create, cancel, reschedule]) {
      expect(call.result.status).toBe(502)
      expect(typeof call.result.body.detail).toBe('string')
    }
    for (const call of [retry, list, create, cancel, reschedule]) expect(call.ms).toBeLessThan(10_000)
    const post = await s.db
      .selectFrom('social_posts')
      .select(['status', 'cancel_url'])
      .where('id', '=', 'pack/hang')
      .executeTakeFirstOrThrow()
    expect(post).toEqual({ status: 'scheduled', cancel_url: `${HANG}/cancel?sig=abc` })
    expect((await s.db.selectFrom('calendar_uids').select('uid').execute()).length).toBe(0)
    const lead = await s.db.selectFrom('leads').select('id').where('parent_name', '=', 'Hang Test').executeTakeFirst()
    expect(lead).toBeDefined()
  }, 30_000)
})
