// The trip roster of an event with sign-ups: the scouts named and the adults counted, contacts and emergency contacts,
// health forms current on the day of the event (not only today), permission slips, balances and slots, with what is
// missing said first; its CSV; and who may read it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { healthFormUntil } from '../../server/roster/health-form.ts'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { addDays, today } from '../dates.ts'

let s: TestServer
let leader: { cookie: string; email: string }
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.packLeader)
})
afterAll(() => s.stop())

const soon = (days: number) => addDays(today(), days)
const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const SLIP = 'My scout may come to the winter campout and ride with the drivers the pack arranges.'

async function createEvent(json: Record<string, unknown>) {
  const res = await s.req('POST', '/api/admin/calendar', {
    cookie: leader.cookie,
    json: { title: 'Winter campout', date: soon(30), unit: 'pack', rsvp: true, ...json },
  })
  expect(res.status).toBe(201)
  return res.body.uid as string
}

const family = (parent_name: string, scouts: number, emergency_phone?: string) =>
  familyAccount(s, { unit: 'pack', email: null, scouts, parent_name, emergency_phone })

const reply = (f: { cookie: string }, uid: string, json: Record<string, unknown>) =>
  s.req('PUT', `${eventPath(uid)}/rsvps`, { cookie: f.cookie, json: { adults: 1, ...json } })
const healthForm = (scout: number, form_date: string) =>
  s.req('PUT', `/api/admin/roster/scouts/${scout}/checks/health_form`, { cookie: leader.cookie, json: { done: true, form_date } })

describe('GET /api/admin/calendar/{uid}/roster', () => {
  it('lists who comes with contacts, health forms on the day, permission, balances and slots, and what is missing first', async () => {
    const uid = await createEvent({
      signup: { per_scout: true, capacity: 3, cost_cents: 2500, permission_text: SLIP, slots: [{ name: 'Driver (4 seats)', needed: 2 }] },
    })
    const ash = await family('Ash Avery', 2, '555-000-1111')
    const blake = await family('Blake Brook', 1)
    const casey = await family('Casey Cole', 1, '555-000-2222')
    const drew = await family('Drew Dale', 1, '555-000-3333')
    const signed = { permission: { signed_name: 'Parent' } }
    expect(
      (
        await reply(ash, uid, {
          answer: 'yes',
          scouts: 2,
          scout_ids: ash.scouts,
          ...signed,
          slots: [{ name: 'Driver (4 seats)', count: 1 }],
        })
      ).status,
    ).toBe(200)
    expect((await reply(blake, uid, { answer: 'yes', scouts: 1, scout_ids: blake.scouts, ...signed })).status).toBe(200)
    expect((await reply(casey, uid, { answer: 'yes', scouts: 1, scout_ids: casey.scouts, ...signed })).body.status).toBe('waitlisted')
    expect((await reply(drew, uid, { answer: 'maybe', scouts: 1, scout_ids: drew.scouts })).status).toBe(200)
    const pay = await s.req('PUT', `${eventPath(uid)}/rsvps/${ash.household}/payment`, {
      cookie: leader.cookie,
      json: { paid_cents: 5000, method: 'check' },
    })
    expect(pay.status).toBe(200)
    // Ash's first scout: a form from a month ago. Blake's: current today, but it runs out before the campout.
    const recent = soon(-30)
    const lapsing = soon(-360)
    expect(healthFormUntil(lapsing) < soon(30) && healthFormUntil(lapsing) >= today()).toBe(true)
    await healthForm(ash.scouts[0], recent)
    await healthForm(blake.scouts[0], lapsing)
    // Ash's family agrees to photos of their first scout on the family page; the second has no consent (the default).
    const consent = await s.req('PATCH', `/api/admin/family/households/${ash.household}`, {
      cookie: ash.cookie,
      json: { scouts: [{ id: ash.scouts[0], photo_consent: true }] },
    })
    expect(consent.status).toBe(200)

    const res = await s.req('GET', `${eventPath(uid)}/roster`, { cookie: leader.cookie })
    expect(res.status).toBe(200)
    const roster = res.body
    expect(roster).toMatchObject({
      title: 'Winter campout',
      date: soon(30),
      named: true,
      permission_slip: true,
      coming: { households: 2, adults: 2, scouts: 3 },
    })
    expect(roster.missing).toEqual([
      '2 health forms not current',
      '$25.00 unpaid by 1 household',
      'Driver (4 seats): 1 more needed',
      '1 household without an emergency contact',
    ])
    expect(roster.summary).toBe(
      'Missing before the trip: 2 health forms not current, $25.00 unpaid by 1 household, Driver (4 seats): 1 more needed and 1 household without an emergency contact.',
    )
    expect(roster.households.map((h: any) => [h.household, h.answer, h.status])).toEqual([
      ['Ash Avery', 'yes', 'confirmed'],
      ['Blake Brook', 'yes', 'confirmed'],
      ['Drew Dale', 'maybe', 'confirmed'],
      ['Casey Cole', 'yes', 'waitlisted'],
    ])
    expect(roster.households[0]).toMatchObject({ emergency_phone: '555-000-1111', owed_cents: 5000, paid_cents: 5000, balance_cents: 0 })
    expect(roster.households[0].permission).toMatchObject({ signed_name: 'Parent', current: true })
    const forms = Object.fromEntries(roster.scouts.map((sc: any) => [sc.id, sc.health_form]))
    expect(Object.keys(forms).map(Number).sort()).toEqual([...ash.scouts, ...blake.scouts].sort())
    expect(forms[ash.scouts[0]]).toEqual({ form_date: recent, expires_on: healthFormUntil(recent), current: true })
    expect(forms[ash.scouts[1]].current).toBe(false)
    expect(forms[blake.scouts[0]]).toMatchObject({ form_date: lapsing, current: false })
    const photos = Object.fromEntries(roster.scouts.map((sc: any) => [sc.id, sc.photo_consent]))
    expect([photos[ash.scouts[0]], photos[ash.scouts[1]], photos[blake.scouts[0]]]).toEqual([true, false, false])
    expect(roster.slots).toEqual([{ name: 'Driver (4 seats)', needed: 2, filled: 1, volunteers: [{ household: 'Ash Avery', count: 1 }] }])
    expect(roster.money).toEqual({ owed_cents: 7500, paid_cents: 5000, balance_cents: 2500 })

    // A changed slip: both households who signed the old one now show as unsigned.
    const event = (await s.req('GET', `${eventPath(uid)}/rsvps`, { cookie: leader.cookie })).body
    const changed = await s.req('PUT', eventPath(uid), {
      cookie: leader.cookie,
      json: {
        title: 'Winter campout',
        date: soon(30),
        unit: 'pack',
        rsvp: true,
        signup: { ...event.signup, permission_text: `${SLIP} We swim.` },
      },
    })
    expect(changed.status).toBe(200)
    const after = (await s.req('GET', `${eventPath(uid)}/roster`, { cookie: leader.cookie })).body
    expect(after.missing[0]).toBe('2 permission slips unsigned')

    const csv = await s.req('GET', `${eventPath(uid)}/roster/export`, { cookie: leader.cookie })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-disposition')).toContain(`trip-roster-${soon(30)}-winter-campout.csv`)
    const lines = csv.text.trim().split('\r\n')
    expect(lines[0]).toStartWith('scout,unit,den,health_form_until,health_form_current,photos_ok,household,answer')
    expect(lines.filter((l: string) => l.includes('"Ash Avery"'))).toHaveLength(2)
    expect(lines.some((l: string) => l.includes('"Casey Cole","waitlisted"'))).toBe(true)
    expect(lines.some((l: string) => l.startsWith(`"Sam","Cub Scout Pack","","${healthFormUntil(recent)}","yes","yes","Ash Avery"`))).toBe(
      true,
    )
  })

  it('counts scouts without names when the event does not ask which come; nothing missing says so', async () => {
    const uid = await createEvent({ title: 'Pinewood derby' })
    const erin = await family('Erin East', 2, '555-000-4444')
    expect((await reply(erin, uid, { answer: 'yes', scouts: 2 })).status).toBe(200)
    const roster = (await s.req('GET', `${eventPath(uid)}/roster`, { cookie: leader.cookie })).body
    expect(roster).toMatchObject({ named: false, scouts: [], missing: [], summary: 'Nothing is missing before the trip.' })
    expect(roster.coming).toEqual({ households: 1, adults: 1, scouts: 2 })
    expect(roster.money).toBeUndefined()
    const csv = (await s.req('GET', `${eventPath(uid)}/roster/export`, { cookie: leader.cookie })).text.trim().split('\r\n')
    expect(csv).toHaveLength(2)
    expect(csv[1]).toStartWith('"","","","","","","Erin East","yes","2","1"')
  })

  it('is for leaders who plan events: 404 for an event that never asked for replies, 403 for a family, 401 signed out', async () => {
    const uid = await createEvent({ title: 'Den meeting' })
    const plain = await createEvent({ title: 'Committee', rsvp: false })
    const parent = await family('Finn Ford', 1)
    expect((await s.req('GET', `${eventPath('no-such-event')}/roster`, { cookie: leader.cookie })).status).toBe(404)
    expect((await s.req('GET', `${eventPath(plain)}/roster`, { cookie: leader.cookie })).status).toBe(404)
    expect((await s.req('GET', `${eventPath(uid)}/roster`, { cookie: parent.cookie })).status).toBe(403)
    expect((await s.req('GET', `${eventPath(uid)}/roster/export`, { cookie: parent.cookie })).status).toBe(403)
    expect((await s.req('GET', `${eventPath(uid)}/roster`)).status).toBe(401)
  })
})
