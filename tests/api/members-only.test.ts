// Members-only events (issue 45, item 12) against a real Radicale and a built site: `visibility` round-trips through
// CalDAV as CLASS:PRIVATE (another app's CLASS:CONFIDENTIAL reads as members too); the public pages, feeds and sitemap
// leave the event out; families see it (family calendar, digest) and in their household's private feed, whose token a
// new one revokes; an unknown token is 404 and the feed holds no one's household data.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { addDays, compact, today } from '../dates.ts'
import { ROLES, startServerWithSite, type TestServer, uniqueEmail } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'
import { type Radicale, startRadicale } from '../radicale.ts'

let dav: Radicale
let s: TestServer
let leader: { cookie: string }
beforeAll(async () => {
  dav = await startRadicale()
  s = await startServerWithSite(dav.env)
  leader = await s.as(ROLES.packLeader)
}, 60_000)
afterAll(async () => {
  await s.stop()
  await dav.stop()
})

const SECRET = 'Leaders-and-families pizza night'
const OPEN = 'Open house for new families'
const TROOP_SECRET = 'Troop court of honor rehearsal'
const day = addDays(today(), 9)

async function create(json: Record<string, unknown>, cookie = leader.cookie) {
  const res = await s.req('POST', '/api/admin/calendar', { cookie, json: { unit: 'pack', date: day, time: '18:00', ...json } })
  expect(res.status).toBe(201)
  return res.body.uid as string
}
const listed = async (uid: string) =>
  (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.events.find((e: any) => e.uid === uid)
const storedIcs = async (uid: string) =>
  (await s.db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirstOrThrow()).ics

let secretUid = ''
let openUid = ''
describe('visibility through CalDAV', () => {
  it('members is kept as CLASS:PRIVATE and read back; a change to public drops it; 422 for an unknown value', async () => {
    secretUid = await create({ title: SECRET, visibility: 'members' })
    openUid = await create({ title: OPEN })
    expect((await listed(secretUid)).visibility).toBe('members')
    expect((await listed(openUid)).visibility).toBeUndefined()
    expect(await storedIcs(secretUid)).toContain('CLASS:PRIVATE')
    expect(await storedIcs(openUid)).not.toContain('CLASS:')

    const get = await s.req('GET', `/api/admin/calendar/${encodeURIComponent(secretUid)}`, { cookie: leader.cookie })
    const put = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(secretUid)}`, {
      cookie: leader.cookie,
      headers: get.headers.get('etag') ? { 'if-match': get.headers.get('etag')! } : {},
      json: { title: SECRET, unit: 'pack', date: day, time: '18:00', visibility: 'public' },
    })
    expect(put.status).toBe(200)
    expect(await storedIcs(secretUid)).not.toContain('CLASS:PRIVATE')
    expect((await listed(secretUid)).visibility).toBeUndefined()
    const back = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(secretUid)}`, {
      cookie: leader.cookie,
      json: { title: SECRET, unit: 'pack', date: day, time: '18:00', visibility: 'members' },
    })
    expect(back.status).toBe(200)
    expect((await listed(secretUid)).visibility).toBe('members')

    const bad = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Odd', date: day, visibility: 'secret' },
    })
    expect(bad.status).toBe(422)
  })

  it("another calendar app's CLASS:CONFIDENTIAL event reads as members-only", async () => {
    const status = await dav.putForeign('confidential.ics', [
      'UID:confidential@other-client',
      `DTSTART;VALUE=DATE:${compact(addDays(day, 1))}`,
      'SUMMARY:Committee budget talk',
      'X-SITE-UNIT:pack',
      'CLASS:CONFIDENTIAL',
    ])
    expect(status).toBe(201)
    expect((await listed('confidential@other-client')).visibility).toBe('members')
  })
})

describe('the public site leaves members-only events out', () => {
  it('no public page, feed or the sitemap names them; the public event is there', async () => {
    await create({ title: TROOP_SECRET, unit: 'troop', visibility: 'members' }, (await s.as(ROLES.troopLeader)).cookie)
    const build = await s.site!.build('members-only test')
    expect(build.ok).toBe(true)
    for (const path of [
      '/',
      '/calendar/',
      '/calendar/pack/',
      '/calendar/troop/',
      '/calendar/month/',
      '/calendar/pack/month/',
      '/units/pack/',
    ]) {
      const res = await fetch(`${s.url}${path}`)
      expect(res.status).toBe(200)
      const html = await res.text()
      expect(html).not.toContain(SECRET)
      expect(html).not.toContain(TROOP_SECRET)
      expect(html).not.toContain('Committee budget talk')
      if (path.startsWith('/calendar/') && !path.includes('troop')) expect(html).toContain(OPEN)
    }
    for (const path of ['/calendar.ics', '/calendar/pack.ics', '/calendar/troop.ics', '/sitemap.xml']) {
      const text = await (await fetch(`${s.url}${path}`)).text()
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(secretUid)
      expect(text).not.toContain(TROOP_SECRET)
    }
    expect(await (await fetch(`${s.url}/calendar.ics`)).text()).toContain(OPEN)
  })
})

describe("families: the family calendar, the digest and the household's private feed", () => {
  it("a pack family sees the pack's members-only events (not the troop's); the digest lists them", async () => {
    const pack = await familyAccount(s, { unit: 'pack', email: uniqueEmail('pack-family'), parent_name: 'Pat Pack' })
    const res = await s.req('GET', '/api/admin/family/calendar', { cookie: pack.cookie })
    expect(res.status).toBe(200)
    expect(res.body.households).toEqual([{ household_id: pack.household, parent_name: 'Pat Pack', feed_made_at: null }])
    const titles = res.body.members_events.map((e: any) => e.title)
    expect(titles).toContain(SECRET)
    expect(titles).toContain('Committee budget talk')
    expect(titles).not.toContain(TROOP_SECRET)
    expect(titles).not.toContain(OPEN)
    expect(res.body.members_events.find((e: any) => e.uid === secretUid)).toEqual({
      uid: secretUid,
      title: SECRET,
      date: day,
      time: '18:00',
      end_time: '19:30',
      unit: 'pack',
    })
    expect((await s.req('GET', '/api/admin/family/calendar')).status).toBe(401)

    const digest = await s.req('GET', '/api/admin/messages/digest', { cookie: (await s.as(ROLES.owner)).cookie })
    const mine = digest.body.households.find((h: any) => h.household_id === pack.household)
    expect(mine.events.map((e: any) => e.title)).toContain(SECRET)
  })

  it('the private feed has the units’ events, public and members-only, and nothing about households; a new link stops the old', async () => {
    const pack = await familyAccount(s, {
      unit: 'pack',
      email: uniqueEmail('feed-family'),
      parent_name: 'Fern Feedwell',
      phone: '555-777-0000',
    })
    const other = await addHousehold(s.db, { unit: 'pack', email: uniqueEmail('other'), parent_name: 'Olive Otherhouse' })
    const made = await s.req('POST', `/api/admin/family/households/${pack.household}/feed`, { cookie: pack.cookie })
    expect(made.status).toBe(200)
    expect(made.body.url).toMatch(/^http:\/\/127\.0\.0\.1:1\/calendar\/household\/[A-Za-z0-9_-]{43}\.ics$/)
    expect(made.body.webcal).toBe(made.body.url.replace('http:', 'webcal:'))
    expect((await s.lastLog('calendar.household_feed')).summary).toBe("New private calendar link for Fern Feedwell's household")
    const stored = await s.db.selectFrom('household_feeds').selectAll().where('household_id', '=', pack.household).executeTakeFirstOrThrow()
    const token = made.body.url.split('/').pop().replace('.ics', '')
    expect(stored.token_hash).not.toContain(token) // kept hashed only

    const path = new URL(made.body.url).pathname
    const feed = await fetch(`${s.url}${path}`)
    expect(feed.status).toBe(200)
    expect(feed.headers.get('content-type')).toContain('text/calendar')
    const text = await feed.text()
    expect(text).toContain(SECRET)
    expect(text).toContain(OPEN)
    expect(text).toContain('Committee budget talk')
    expect(text).not.toContain(TROOP_SECRET)
    for (const private_ of ['Fern Feedwell', 'Olive Otherhouse', '555-777-0000', 'Sam']) expect(text).not.toContain(private_)

    const page = await s.req('GET', '/api/admin/family/calendar', { cookie: pack.cookie })
    expect(page.body.households[0].feed_made_at).toBe(made.body.made_at)

    const again = await s.req('POST', `/api/admin/family/households/${pack.household}/feed`, { cookie: pack.cookie })
    expect(again.status).toBe(200)
    expect((await s.lastLog('calendar.household_feed')).summary).toBe(
      "New private calendar link for Fern Feedwell's household (the old link stopped)",
    )
    expect((await fetch(`${s.url}${path}`)).status).toBe(404)
    expect((await fetch(`${s.url}${new URL(again.body.url).pathname}`)).status).toBe(200)
    expect((await fetch(`${s.url}/calendar/household/not-a-token.ics`)).status).toBe(404)
    expect((await fetch(`${s.url}/calendar/household/${token}`)).status).toBe(404)

    // Only for your own household; a leader is not a member of it either.
    expect((await s.req('POST', `/api/admin/family/households/${other}/feed`, { cookie: pack.cookie })).status).toBe(404)
    expect((await s.req('POST', `/api/admin/family/households/${pack.household}/feed`, { cookie: leader.cookie })).status).toBe(404)
    expect((await s.req('POST', `/api/admin/family/households/${pack.household}/feed`)).status).toBe(401)

    // A household made inactive stops its feed.
    await s.db.updateTable('households').set({ active: 0 }).where('id', '=', pack.household).execute()
    expect((await fetch(`${s.url}${new URL(again.body.url).pathname}`)).status).toBe(404)
  })
})
