// Reply links in mail (/reply/<token>), through a real SMTP relay on loopback: each household's mail carries its own
// link; the link answers for that household and that event only (404 otherwise), opening it changes nothing, a reply
// through it follows the family's rules (permission slip, scouts, places and waitlist, slots) and is logged as the
// household via the link; once the sign-up closes or the event starts it is 410, and a household off the roster 404.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN, eventually, expectDetail, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'

let relay: TestRelay
let s: TestServer
let leader: { cookie: string }
beforeAll(async () => {
  relay = await startRelay()
  // The rate limit counts per client: each test speaks from its own address (X-Forwarded-For from a trusted proxy).
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>', TRUST_PROXY: '127.0.0.1/32' })
  leader = await s.as(ROLES.packLeader)
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

let clients = 0
let client = '198.51.100.1'
const fromNewClient = () => (client = `198.51.100.${++clients + 1}`)

const link = (method: 'GET' | 'PUT', token: string, json?: Record<string, unknown>) =>
  s.req(method, `/api/reply/${token}`, { ...(method === 'PUT' ? { json } : {}), headers: { 'x-forwarded-for': client } })

async function createEvent(json: Record<string, unknown>) {
  const res = await s.req('POST', '/api/admin/calendar', {
    cookie: leader.cookie,
    json: { title: 'Winter campout', date: addDays(today(), 30), unit: 'pack', rsvp: true, ...json },
  })
  expect(res.status).toBe(201)
  return res.body.uid as string
}

/** A pack household with its own address and `scouts` scouts; answers its id and address. */
async function household(scouts = 2) {
  const email = uniqueEmail('reply-family')
  return { id: await addHousehold(s.db, { unit: 'pack', email, scouts }), email }
}

/** The reply-link token each address got in a leader's message to the event's families. */
let sent = 0
async function mailedTokens(uid: string, emails: string[]): Promise<string[]> {
  const subject = `About the campout (${++sent})`
  const res = await s.req('POST', '/api/admin/messages', {
    cookie: leader.cookie,
    json: { subject, body: 'Please reply.', audience: { event: { uid } } },
  })
  expect(res.status).toBe(201)
  const tokens = []
  for (const email of emails) {
    const mine = (m: { to: string[]; subject: string }) => m.to.includes(email) && m.subject === subject
    await eventually(async () => relay.received.some(mine))
    const mail = relay.received.find(mine)!
    tokens.push(linkIn(mail, 'http://127.0.0.1:1/reply/').split('/reply/')[1])
  }
  return tokens
}

const counts = async () => ({
  log: Number(
    (
      await s.db
        .selectFrom('action_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  rsvps: Number(
    (
      await s.db
        .selectFrom('rsvps')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
})

describe('reply links in mail', () => {
  it("carry each household's own link; opening it shows the event, the household and its scouts, and changes nothing", async () => {
    fromNewClient()
    const end = addDays(today(), 32)
    const uid = await createEvent({
      end,
      location: 'Camp Lakota',
      description: 'Bring a sleeping bag.',
      signup: { per_scout: true, capacity: 3, cost_cents: 3500 },
    })
    await s.req('PUT', '/api/admin/settings/payments.instructions', {
      token: ADMIN_TOKEN,
      json: { value: 'Pay **Pat Lee** by check, or [online](https://pay.example.org).' },
    })
    const [a, b] = [await household(), await household(1)]
    const [tokenA, tokenB] = await mailedTokens(uid, [a.email, b.email])
    expect(tokenA).not.toBe(tokenB)

    const before = await counts()
    const opened = await link('GET', tokenA)
    expect(opened.status).toBe(200)
    expect(opened.body.household).toMatchObject({ id: a.id, parent_name: `Parent ${a.email}` })
    expect(opened.body.household.scouts.map((sc: any) => sc.first_name)).toEqual(['Kid1', 'Sam'])
    expect(opened.body.reply).toBeNull()
    expect(opened.body.event).toMatchObject({ uid, title: 'Winter campout', location: 'Camp Lakota', open: true, replies: [] })
    expect(opened.body.event.places).toEqual({ capacity: 3, confirmed: 0, waitlisted: 0, left: 3 })
    // The card's details: the multi-day range, the description, and how to pay (Markdown, sanitised HTML).
    expect(opened.body.event.details).toMatchObject({ end_date: end, description: 'Bring a sleeping bag.' })
    expect(opened.body.event.details.payment_instructions).toContain('<strong>Pat Lee</strong>')
    expect(opened.body.event.details.payment_instructions).toContain('href="https://pay.example.org"')
    expect((await link('GET', tokenB)).body.household.id).toBe(b.id)
    // Mail scanners open links: reading twice wrote nothing.
    await link('GET', tokenA)
    expect(await counts()).toEqual(before)
    // A resent mail gives a link that works: the same one.
    expect((await mailedTokens(uid, [a.email]))[0]).toBe(tokenA)
  })

  it('answers for its household and event only: 404 for a changed household or event, 403 for another household_id', async () => {
    fromNewClient()
    const uid = await createEvent({ title: 'Pack hike' })
    const other = await createEvent({ title: 'Pack swim' })
    const [a, b] = [await household(1), await household(1)]
    const [token] = await mailedTokens(uid, [a.email])
    const [id, event, mac] = token.split('.')
    for (const bad of [
      `${b.id}.${event}.${mac}`,
      `${id}.${Buffer.from(other).toString('base64url')}.${mac}`,
      `${id}.${event}.${mac.slice(0, -2)}`,
      'not-a-token',
      `${token}.x`,
    ]) {
      const res = await link('GET', bad)
      expectDetail(res, 404)
      expect(res.body.detail).toContain('This reply link does not work')
      expectDetail(await link('PUT', bad, { answer: 'yes', adults: 1, scouts: 1 }), 404)
    }
    const res = await link('PUT', token, { answer: 'yes', adults: 1, scouts: 1, household_id: b.id })
    expectDetail(res, 403)
    expect(await s.db.selectFrom('rsvps').select('household_id').where('uid', '=', uid).execute()).toEqual([])
  })

  it("a reply follows the family's rules: the slip, the household's scouts, places and the waitlist, slots; logged as the household", async () => {
    fromNewClient()
    const uid = await createEvent({
      title: 'Cabin weekend',
      signup: { per_scout: true, capacity: 1, permission_text: 'I allow my scouts to come.', slots: [{ name: 'Driver', needed: 1 }] },
    })
    const [a, b] = [await household(2), await household(1)]
    const [tokenA, tokenB] = await mailedTokens(uid, [a.email, b.email])
    const scoutsOf = async (token: string) => (await link('GET', token)).body.household.scouts.map((sc: any) => sc.id as number)
    const [idsA, idsB] = [await scoutsOf(tokenA), await scoutsOf(tokenB)]
    const yes = { answer: 'yes', adults: 1 }

    expect((await link('PUT', tokenA, { ...yes, scouts: 2, scout_ids: idsA })).body.detail).toStartWith('permission:')
    const notOurs = await link('PUT', tokenA, { ...yes, scouts: 1, scout_ids: idsB, permission: { signed_name: 'Pat' } })
    expectDetail(notOurs, 422)
    expect(notOurs.body.detail).toStartWith('scout_ids:')
    const badSlot = await link('PUT', tokenA, {
      ...yes,
      scouts: 2,
      scout_ids: idsA,
      permission: { signed_name: 'Pat' },
      slots: [{ name: 'Cook', count: 1 }],
    })
    expectDetail(badSlot, 422)

    // Two scouts, one place: the household waits.
    const waiting = await link('PUT', tokenA, { ...yes, scouts: 2, scout_ids: idsA, permission: { signed_name: 'Pat Lee' } })
    expect(waiting.status).toBe(200)
    expect(waiting.body).toMatchObject({ household_id: a.id, status: 'waitlisted', answered_by: `household ${a.id} via reply link` })
    expect(waiting.body.permission).toMatchObject({ signed_name: 'Pat Lee', current: true })
    const logged = await s.lastLog('calendar.rsvp')
    expect(logged.actor).toBe(`household ${a.id} via reply link`)
    expect(logged.summary).toContain('(waitlisted)')

    const driver = await link('PUT', tokenB, {
      ...yes,
      scouts: 1,
      scout_ids: idsB,
      permission: { signed_name: 'Bo' },
      slots: [{ name: 'Driver', count: 1 }],
    })
    expect(driver.body).toMatchObject({ status: 'waitlisted', slots: [{ name: 'Driver', count: 1 }] })
    // A waiting household's slot fills nothing (the counts rule): the other waiting household may take it too.
    const alsoDriving = await link('PUT', tokenA, { ...yes, scouts: 2, scout_ids: idsA, slots: [{ name: 'Driver', count: 1 }] })
    expect(alsoDriving.body).toMatchObject({ status: 'waitlisted', slots: [{ name: 'Driver', count: 1 }] })

    // One scout fits: first in line, the household is confirmed (its signature kept).
    const one = await link('PUT', tokenA, { ...yes, scouts: 1, scout_ids: [idsA[0]] })
    expect(one.body).toMatchObject({ status: 'confirmed', scout_ids: [idsA[0]] })
    const seen = await s.req('GET', `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`, { cookie: leader.cookie })
    expect(seen.body.replies.find((r: any) => r.household_id === a.id)).toMatchObject({
      status: 'confirmed',
      answered_by: `household ${a.id} via reply link`,
    })
    expect((await link('GET', tokenA)).body.reply).toMatchObject({ answer: 'yes', scouts: 1 })
  })

  it('is 410 once the sign-up closed or the event started, and 404 once the household left the roster', async () => {
    fromNewClient()
    const closing = await createEvent({ title: 'Closing soon', signup: { closes_at: `${addDays(today(), 10)}T12:00:00Z` } })
    const starting = await createEvent({ title: 'Starting soon' })
    const [a, gone] = [await household(1), await household(1)]
    const [closed, leaving] = await mailedTokens(closing, [a.email, gone.email])
    const [started] = await mailedTokens(starting, [a.email])
    const past = new Date(Date.now() - 60_000).toISOString()
    await s.db
      .updateTable('rsvp_events')
      .set({ signup: JSON.stringify({ closes_at: past }) })
      .where('uid', '=', closing)
      .execute()
    await s.db.updateTable('rsvp_events').set({ starts_at: past, signup: null }).where('uid', '=', starting).execute()
    for (const method of ['GET', 'PUT'] as const) {
      const res = await link(method, closed, { answer: 'no', adults: 0, scouts: 0 })
      expectDetail(res, 410)
      expect(res.body.detail).toStartWith('Replies are closed: they closed')
      const late = await link(method, started, { answer: 'no', adults: 0, scouts: 0 })
      expectDetail(late, 410)
      expect(late.body.detail).toBe('Replies are closed: the event has started')
    }
    await s.db.updateTable('households').set({ active: 0 }).where('id', '=', gone.id).execute()
    expectDetail(await link('GET', leaving), 404)
  })

  it('is rate-limited per address: 429 after 30 asks in 10 minutes', async () => {
    fromNewClient()
    for (let i = 0; i < 30; i++) expect((await link('GET', 'not-a-token')).status).toBe(404)
    const res = await link('GET', 'not-a-token')
    expectDetail(res, 429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    fromNewClient()
    expect((await link('GET', 'not-a-token')).status).toBe(404)
  })
})
