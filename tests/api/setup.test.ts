// The owner's getting-started steps: done from the data, dismissed by the owner only, and every status of both routes.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer, uniqueEmail, withServer } from '../helpers.ts'
import { startRelay } from '../mail.ts'

let s: TestServer
let owner: { id: number; email: string; cookie: string }
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

const steps = async (cookie = owner.cookie) => {
  const res = await s.req('GET', '/api/admin/setup', { cookie })
  expect(res.status).toBe(200)
  return Object.fromEntries(res.body.steps.map((step: any) => [step.step, step]))
}
const dismiss = (step: string, creds: { cookie?: string; token?: string; key?: string } = { cookie: owner.cookie }) =>
  s.req('POST', `/api/admin/setup/${step}/dismiss`, creds)

describe('GET /api/admin/setup', () => {
  it('lists the eight steps in order, none done on a new site, each with what to do and where', async () => {
    const res = await s.req('GET', '/api/admin/setup', { cookie: owner.cookie })
    expect(res.body.steps.map((x: any) => x.step)).toEqual([
      'units',
      'meetings',
      'mail',
      'calendar',
      'leaders',
      'second_factor',
      'announcement',
      'content_page',
    ])
    for (const step of res.body.steps) {
      expect(step).toMatchObject({ done: false, dismissed: false })
      expect(step.href).toStartWith('/admin/')
      expect(step.about.length).toBeGreaterThan(20)
    }
  })

  it('marks a step done once the data shows it: numbers, meetings, an invite, an announcement, a content page', async () => {
    for (const slug of ['pack', 'troop']) {
      const change = { number: '12', meeting_day: 'tuesday', meeting_time: '18:30', meeting_place: 'Hall' }
      expect((await s.req('PATCH', `/api/admin/units/${slug}`, { cookie: owner.cookie, json: change })).status).toBe(200)
    }
    await s.req('POST', '/api/admin/people/invite', { cookie: owner.cookie, json: { email: uniqueEmail('leader') } })
    const ends_at = new Date(Date.now() + 86_400_000).toISOString()
    expect(
      (await s.req('POST', '/api/admin/announcements', { cookie: owner.cookie, json: { message: 'Sign-up night', ends_at } })).status,
    ).toBe(201)
    const now = new Date().toISOString()
    await s.db
      .insertInto('content_pages')
      .values({
        slug: 'about',
        title: 'About us',
        body: 'Hi',
        unit: 'both',
        published: 0,
        created_at: now,
        updated_at: now,
        updated_by: owner.email,
      })
      .execute()
    const after = await steps()
    for (const done of ['units', 'meetings', 'leaders', 'announcement', 'content_page']) expect(after[done].done).toBe(true)
    for (const open of ['mail', 'calendar', 'second_factor']) expect(after[open].done).toBe(false)
  })

  it('counts mail as done when SMTP_URL is set', async () => {
    const relay = await startRelay()
    try {
      await withServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack <pack@example.org>' }, async (m) => {
        const res = await m.req('GET', '/api/admin/setup', { cookie: (await m.as(ROLES.owner)).cookie })
        expect(res.body.steps.find((x: any) => x.step === 'mail').done).toBe(true)
      })
    } finally {
      await relay.close()
    }
  })

  it('is for owners only: anonymous 401; admin, leader and break-glass 403', async () => {
    expectDetail(await s.req('GET', '/api/admin/setup'), 401)
    expectDetail(await s.req('GET', '/api/admin/setup', { cookie: (await s.as(ROLES.admin)).cookie }), 403)
    expectDetail(await s.req('GET', '/api/admin/setup', { cookie: (await s.as(ROLES.packLeader)).cookie }), 403)
    expectDetail(await s.req('GET', '/api/admin/setup', { token: ADMIN_TOKEN }), 403)
  })
})

describe('POST /api/admin/setup/:step/dismiss', () => {
  it('dismisses a step (200, logged once; again 200 without a new entry), and the list says so', async () => {
    const res = await dismiss('calendar')
    expect(res.status).toBe(200)
    expect(res.body.step).toMatchObject({ step: 'calendar', dismissed: true, done: false })
    const entry = await s.lastLog('setup.dismiss')
    expect(entry.actor).toBe(owner.email)
    expect(entry.summary).toContain('Add the first event')
    expect((await dismiss('calendar')).status).toBe(200)
    expect((await s.lastLog('setup.dismiss')).id).toBe(entry.id)
    expect((await steps()).calendar.dismissed).toBe(true)
  })

  it('answers 404 for a step not on the list, 422 for a name too long to be one, and 401/403 to anyone but an owner', async () => {
    expectDetail(await dismiss('no_such_step'), 404)
    expectDetail(await dismiss('__proto__'), 404)
    expectDetail(await dismiss('x'.repeat(51)), 422)
    expectDetail(await dismiss('mail', {}), 401)
    expectDetail(await dismiss('mail', { cookie: (await s.as(ROLES.admin)).cookie }), 403)
    expectDetail(await dismiss('mail', { token: ADMIN_TOKEN }), 403)
    expect((await steps()).mail.dismissed).toBe(false)
  })
})

describe('GET /api/admin/summary: your_use', () => {
  it("counts the caller's own changes per admin page, most first, and nobody else's", async () => {
    const leader = await s.as(ROLES.packLeader)
    const other = await s.as(ROLES.packLeader)
    expect((await s.req('GET', '/api/admin/summary', { cookie: leader.cookie })).body.your_use).toEqual([])
    for (const time of ['18:00', '18:15'])
      await s.req('PATCH', '/api/admin/units/pack', { cookie: leader.cookie, json: { meeting_time: time } })
    await s.mintKey(leader.cookie, ['leads:read'])
    await s.req('PATCH', '/api/admin/units/pack', { cookie: other.cookie, json: { meeting_time: '19:00' } })
    const res = await s.req('GET', '/api/admin/summary', { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body.your_use).toEqual([
      { href: '/admin/units/', count: 2 },
      { href: '/admin/keys/', count: 1 },
    ])
  })

  it("counts only the caller's last 1,000 changes, so a long history costs no more to read", async () => {
    const leader = await s.as(ROLES.packLeader)
    // Signing in has logged entries of its own (no admin page's), newer than those below.
    const { own } = await s.db
      .selectFrom('action_log')
      .select((eb) => eb.fn.countAll<number>().as('own'))
      .where('actor', '=', leader.email)
      .executeTakeFirstOrThrow()
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString()
    const entry = (kind: string, minutesAgo: number) => ({ at: at(minutesAgo), kind, actor: leader.email, summary: 'Earlier change' })
    await s.db
      .insertInto('action_log')
      .values([
        ...Array.from({ length: 5 }, (_, i) => entry('leads.claim', 2000 + i)),
        ...Array.from({ length: 1000 }, (_, i) => entry('nearby.update', 1 + i)),
      ])
      .execute()
    expect((await s.req('GET', '/api/admin/summary', { cookie: leader.cookie })).body.your_use).toEqual([
      { href: '/admin/nearby/', count: 1000 - Number(own) },
    ])
  })
})
