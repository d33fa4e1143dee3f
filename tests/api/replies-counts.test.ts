// Issue 45, items 8, 10 and 11, against a real SMTP relay on loopback: leaders see the households of the event's units
// that have not answered and remind exactly them; counts agree everywhere (a yes waiting for a place is not coming and
// fills no slot); the digest asks only households that have not answered; the trip roster checks health forms on the
// event's last day and gives its date range.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { utcToZoned } from '../../server/calendar/zone.ts'
import { healthFormUntil } from '../../server/roster/health-form.ts'
import { WEEKDAYS } from '../../server/formats.ts'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'
import { startRelay, type TestRelay } from '../mail.ts'

let relay: TestRelay
let s: TestServer
let packLeader: { cookie: string; email: string }
let troopLeader: { cookie: string; email: string }
let owner: { cookie: string }
beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }, { mailRetryMs: 200 })
  packLeader = await s.as(ROLES.packLeader)
  troopLeader = await s.as(ROLES.troopLeader)
  owner = await s.as(ROLES.owner)
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const soon = (days: number) => addDays(today(), days)
const path = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
async function createEvent(json: Record<string, unknown>, cookie = packLeader.cookie) {
  const res = await s.req('POST', '/api/admin/calendar', { cookie, json: { unit: 'pack', date: soon(20), rsvp: true, ...json } })
  expect(res.status).toBe(201)
  return res.body.uid as string
}
const reply = (f: { cookie: string }, uid: string, json: Record<string, unknown>) =>
  s.req('PUT', `${path(uid)}/rsvps`, { cookie: f.cookie, json: { adults: 1, ...json } })

describe('who has not answered (item 8)', () => {
  it("lists the active households of the event's units without a reply, with email and phone; families do not see it", async () => {
    const uid = await createEvent({ title: 'Pack picnic' })
    const answered = await familyAccount(s, { unit: 'pack', email: uniqueEmail('answered'), parent_name: 'Ann Answered' })
    const quietEmail = uniqueEmail('quiet')
    const quiet = await addHousehold(s.db, { unit: 'pack', email: quietEmail, phone: '555-010-2000', parent_name: 'Quinn Quiet' })
    const noMail = await addHousehold(s.db, { unit: 'pack', email: null, parent_name: 'Nico Nomail' })
    await addHousehold(s.db, { unit: 'troop', email: uniqueEmail('troop'), parent_name: 'Tess Troop' })
    await addHousehold(s.db, { unit: 'pack', email: uniqueEmail('gone'), parent_name: 'Gale Gone', active: false })
    await addHousehold(s.db, { unit: 'pack', email: uniqueEmail('none'), parent_name: 'Nell Noscouts', scouts: 0 })
    expect((await reply(answered, uid, { answer: 'no', adults: 0, scouts: 0 })).status).toBe(200)

    const list = await s.req('GET', `${path(uid)}/rsvps`, { cookie: packLeader.cookie })
    expect(list.status).toBe(200)
    const names = list.body.not_answered.map((h: any) => h.parent_name)
    expect(names).toContain('Quinn Quiet')
    expect(names).toContain('Nico Nomail')
    for (const absent of ['Ann Answered', 'Tess Troop', 'Gale Gone', 'Nell Noscouts']) expect(names).not.toContain(absent)
    expect(list.body.not_answered_count).toBe(list.body.not_answered.length)
    expect(list.body.not_answered.find((h: any) => h.household_id === quiet)).toEqual({
      household_id: quiet,
      parent_name: 'Quinn Quiet',
      email: quietEmail,
      phone: '555-010-2000',
    })
    expect(list.body.not_answered.find((h: any) => h.household_id === noMail)).toMatchObject({ email: null, phone: null })

    const own = await s.req('GET', `${path(uid)}/rsvps`, { cookie: answered.cookie })
    expect(own.status).toBe(200)
    expect(own.body.not_answered).toBeUndefined()
    expect(own.body.not_answered_count).toBeUndefined()

    // Once Quinn answers, Quinn is off the list.
    const quinn = await s.as(ROLES.member)
    await s.db.insertInto('household_people').values({ household_id: quiet, person_id: quinn.id }).execute()
    expect((await reply(quinn, uid, { answer: 'maybe', scouts: 1 })).status).toBe(200)
    const after = await s.req('GET', `${path(uid)}/rsvps`, { cookie: packLeader.cookie })
    expect(after.body.not_answered.map((h: any) => h.household_id)).not.toContain(quiet)
    expect(after.body.not_answered_count).toBe(list.body.not_answered_count - 1)
  })

  it('for an event of both units a leader sees only the units they lead; an admin sees both', async () => {
    const uid = await createEvent({ title: 'Joint campfire', unit: 'both' }, owner.cookie)
    const pack = await addHousehold(s.db, { unit: 'pack', email: uniqueEmail('both-pack'), parent_name: 'Pia Pack' })
    const troop = await addHousehold(s.db, { unit: 'troop', email: uniqueEmail('both-troop'), parent_name: 'Tom Troop' })
    const ids = async (cookie: string) =>
      (await s.req('GET', `${path(uid)}/rsvps`, { cookie })).body.not_answered.map((h: any) => h.household_id) as number[]
    const asPack = await ids(packLeader.cookie)
    expect(asPack).toContain(pack)
    expect(asPack).not.toContain(troop)
    const asTroop = await ids(troopLeader.cookie)
    expect(asTroop).toContain(troop)
    expect(asTroop).not.toContain(pack)
    const asOwner = await ids(owner.cookie)
    expect(asOwner).toContain(pack)
    expect(asOwner).toContain(troop)
  })

  it('"Remind them" (audience event.replies none) mails exactly the households listed, through SMTP', async () => {
    const uid = await createEvent({ title: 'Den hike' })
    const yes = await familyAccount(s, { unit: 'pack', email: uniqueEmail('hike-yes') })
    expect((await reply(yes, uid, { answer: 'yes', scouts: 1 })).status).toBe(200)
    const list = await s.req('GET', `${path(uid)}/rsvps`, { cookie: packLeader.cookie })
    const expected = list.body.not_answered.flatMap((h: any) => (h.email ? [h.email.toLowerCase()] : []))
    expect(expected.length).toBeGreaterThan(0)
    const sent = await s.req('POST', '/api/admin/messages', {
      cookie: packLeader.cookie,
      json: {
        subject: 'Please reply: Den hike',
        body: 'Are you coming?',
        audience: { event: { uid, replies: ['none'] } },
      },
    })
    expect(sent.status).toBe(201)
    for (const email of expected) expect((await relay.waitFor(email)).subject).toBe('Please reply: Den hike')
    const reached = relay.received.filter((m) => m.subject === 'Please reply: Den hike').flatMap((m) => m.to)
    // Exactly the households listed: their own addresses and their linked accounts' addresses.
    const ids = list.body.not_answered.map((h: any) => h.household_id)
    const linked = await s.db
      .selectFrom('household_people')
      .innerJoin('people', 'people.id', 'household_people.person_id')
      .select('people.email')
      .where('household_people.household_id', 'in', ids)
      .execute()
    expect(reached.sort()).toEqual([...new Set([...expected, ...linked.map((l) => l.email.toLowerCase())])].sort())
    expect(relay.received.some((m) => m.to.includes(yes.email) && m.subject === 'Please reply: Den hike')).toBe(false)
  })
})

describe('counts agree everywhere (item 10)', () => {
  it('a waitlisted yes is not coming, fills no slot, and is not among the drivers; every view says the same', async () => {
    const uid = await createEvent({
      title: 'Cabin weekend',
      signup: { per_scout: true, capacity: 2, slots: [{ name: 'Driver (4 seats)', needed: 2 }] },
    })
    const first = await familyAccount(s, { unit: 'pack', email: null, parent_name: 'Fay First', scouts: 2 })
    const late = await familyAccount(s, { unit: 'pack', email: null, parent_name: 'Lee Late', scouts: 1 })
    const driver = [{ name: 'Driver (4 seats)', count: 1 }]
    expect((await reply(first, uid, { answer: 'yes', scouts: 2, scout_ids: first.scouts, slots: driver })).body.status).toBe('confirmed')
    const waiting = await reply(late, uid, { answer: 'yes', scouts: 1, scout_ids: late.scouts, slots: driver })
    expect(waiting.status).toBe(200)
    expect(waiting.body.status).toBe('waitlisted')

    const list = await s.req('GET', `${path(uid)}/rsvps`, { cookie: packLeader.cookie })
    expect(list.body.places).toEqual({ capacity: 2, confirmed: 2, waitlisted: 1, left: 0 })
    expect(list.body.totals.yes).toEqual({ households: 1, adults: 1, scouts: 2 })
    expect(list.body.totals.waitlisted).toEqual({ households: 1, adults: 1, scouts: 1 })
    expect(list.body.slots).toEqual([{ name: 'Driver (4 seats)', needed: 2, filled: 1 }])

    const calendar = await s.req('GET', '/api/admin/calendar', { cookie: packLeader.cookie })
    const shown = calendar.body.events.find((e: any) => e.uid === uid)
    expect(shown.replies.yes.scouts).toBe(list.body.places.confirmed)
    expect(shown.replies.waitlisted.scouts).toBe(1)

    const family = await s.req('GET', '/api/admin/family', { cookie: late.cookie })
    const asked = family.body.events.find((e: any) => e.uid === uid)
    expect(asked.places).toEqual(list.body.places)
    expect(asked.slots).toEqual(list.body.slots)

    const roster = await s.req('GET', `${path(uid)}/roster`, { cookie: packLeader.cookie })
    expect(roster.status).toBe(200)
    expect(roster.body.coming).toEqual({ households: 1, adults: 1, scouts: 2 })
    expect(roster.body.slots).toEqual([
      { name: 'Driver (4 seats)', needed: 2, filled: 1, volunteers: [{ household: 'Fay First', count: 1 }] },
    ])

    const csv = await s.req('GET', `${path(uid)}/rsvps/export`, { cookie: packLeader.cookie })
    expect(csv.text).toContain('"Total: 1 household","yes","1","2"')
    expect(csv.text).toContain('"Total: 1 household","waitlisted","1","1"')

    // When a place frees up, the waitlisted family moves up: now coming, and its slot is filled.
    expect((await reply(first, uid, { answer: 'yes', scouts: 1, scout_ids: [first.scouts[0]] })).status).toBe(200)
    const moved = await s.req('GET', `${path(uid)}/rsvps`, { cookie: packLeader.cookie })
    expect(moved.body.totals.yes).toEqual({ households: 2, adults: 2, scouts: 2 })
    expect(moved.body.totals.waitlisted).toEqual({ households: 0, adults: 0, scouts: 0 })
    expect(moved.body.slots[0].filled).toBe(2)
  })

  it('without places there is no waitlist headcount', async () => {
    const uid = await createEvent({ title: 'Plain social' })
    const list = await s.req('GET', `${path(uid)}/rsvps`, { cookie: packLeader.cookie })
    expect(Object.keys(list.body.totals).sort()).toEqual(['maybe', 'no', 'yes'])
  })

  it('the digest asks only the households that have not answered to reply (preview and the mail through SMTP)', async () => {
    // Ten days ahead is inside the preview's two weeks from the next digest (at most a week away) on any weekday, and
    // inside those of a digest due now.
    const uid = await createEvent({ title: 'Popcorn kickoff', date: soon(10), time: '18:00' })
    const said = await familyAccount(s, { unit: 'pack', email: uniqueEmail('digest-said') })
    const silentEmail = uniqueEmail('digest-silent')
    await addHousehold(s.db, { unit: 'pack', email: silentEmail })
    expect((await reply(said, uid, { answer: 'yes', scouts: 1 })).status).toBe(200)

    const preview = await s.req('GET', '/api/admin/messages/digest', { cookie: owner.cookie })
    expect(preview.status).toBe(200)
    const eventFor = (email: string) =>
      preview.body.households.find((h: any) => h.emails.includes(email)).events.find((e: any) => e.uid === uid)
    expect(eventFor(said.email).asks_reply).toBe(false)
    expect(eventFor(silentEmail).asks_reply).toBe(true)

    // Due now: this hour of today, in the site's time zone.
    const here = utcToZoned(Date.now(), 'America/Chicago')
    const setting = (key: string, value: unknown) => s.req('PUT', `/api/admin/settings/${key}`, { token: ADMIN_TOKEN, json: { value } })
    expect((await setting('mail.digest_day', WEEKDAYS[(new Date(`${here.date}T12:00:00Z`).getUTCDay() + 6) % 7])).status).toBe(200)
    expect((await setting('mail.digest_hour', Number(here.time.slice(0, 2)))).status).toBe(200)
    s.startDigest()
    const [saidMail, silentMail] = [await relay.waitFor(said.email, 20_000), await relay.waitFor(silentEmail, 20_000)]
    const line = (text: string) => text.split('\n').find((l) => l.includes('Popcorn kickoff'))!
    expect(line(saidMail.text)).not.toContain('reply')
    expect(line(silentMail.text)).toMatch(/ — reply: http:\/\/127\.0\.0\.1:1\/reply\/\S+$/)
  })
})

describe('the trip roster over several days (item 11)', () => {
  it("checks health forms on the event's last day and gives the date range", async () => {
    const start = soon(30)
    const end = addDays(start, 2)
    const uid = await createEvent({ title: 'Long campout', date: start, end, signup: { per_scout: true } })
    const fam = await familyAccount(s, { unit: 'pack', email: null, parent_name: 'Hale Health', scouts: 1 })
    expect((await reply(fam, uid, { answer: 'yes', scouts: 1, scout_ids: fam.scouts })).status).toBe(200)
    // A form that runs out on the campout's first day: current when it starts, not on its last day.
    let formDate = soon(-330)
    while (healthFormUntil(formDate) < start) formDate = addDays(formDate, 1)
    while (healthFormUntil(formDate) > start) formDate = addDays(formDate, -1)
    expect(healthFormUntil(formDate) >= start && healthFormUntil(formDate) < end).toBe(true)
    const put = await s.req('PUT', `/api/admin/roster/scouts/${fam.scouts[0]}/checks/health_form`, {
      cookie: packLeader.cookie,
      json: { done: true, form_date: formDate },
    })
    expect(put.status).toBe(200)
    const roster = await s.req('GET', `${path(uid)}/roster`, { cookie: packLeader.cookie })
    expect(roster.status).toBe(200)
    expect(roster.body).toMatchObject({ date: start, end_date: end })
    expect(roster.body.scouts[0].health_form).toEqual({ form_date: formDate, expires_on: healthFormUntil(formDate), current: false })
    expect(roster.body.missing).toContain('1 health form not current')

    const oneDay = await createEvent({ title: 'Day trip', date: start, signup: { per_scout: true } })
    expect((await reply(fam, oneDay, { answer: 'yes', scouts: 1, scout_ids: fam.scouts })).status).toBe(200)
    const day = await s.req('GET', `${path(oneDay)}/roster`, { cookie: packLeader.cookie })
    expect(day.body.end_date).toBeNull()
    expect(day.body.scouts[0].health_form.current).toBe(true)
  })
})
