// A unit leader acts only on the events of the units they lead (events for both units included): writing, deleting,
// recording payments, and reading replies' CSV and trip rosters; another unit's event answers 403 unit_out_of_scope.
// A leader of another unit reads an event's replies as any family does. Admins, owners and the break-glass token are
// not limited. Also: an event time the clocks skip in the site's time zone is 422 nonexistent_local_time.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'
import { addDays, springForward, today } from '../dates.ts'

let s: TestServer
type Who = { cookie?: string; token?: string }
const callers: Record<string, Who> = {}
beforeAll(async () => {
  s = await startServer()
  for (const role of ['packLeader', 'troopLeader', 'admin', 'owner'] as const) callers[role] = { cookie: (await s.as(ROLES[role])).cookie }
  callers.breakGlass = { token: ADMIN_TOKEN }
})
afterAll(() => s.stop())

const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const body = (unit: string) => ({ title: `A ${unit} campout`, date: addDays(today(), 20), unit, rsvp: true, signup: { cost_cents: 1500 } })

/** An event of `unit` asking for sign-ups with a cost, made by an admin, with one troop family's yes. */
async function event(unit: 'pack' | 'troop' | 'both') {
  const made = await s.req('POST', '/api/admin/calendar', { ...callers.admin, json: body(unit) })
  expect(made.status).toBe(201)
  const family = await familyAccount(s, { unit: unit === 'pack' ? 'pack' : 'troop', email: null, scouts: 1 })
  const yes = await s.req('PUT', `${eventPath(made.body.uid)}/rsvps`, {
    cookie: family.cookie,
    json: { answer: 'yes', adults: 1, scouts: 1 },
  })
  expect(yes.status, yes.text).toBe(200)
  return { uid: made.body.uid as string, unit, household: family.household }
}
type Event = Awaited<ReturnType<typeof event>>

const actions: Record<string, (e: Event, who: Who) => ReturnType<TestServer['req']>> = {
  'PUT the event': (e, who) => s.req('PUT', eventPath(e.uid), { ...who, json: body(e.unit) }),
  'DELETE the event': (e, who) => s.req('DELETE', eventPath(e.uid), who),
  'PUT a payment': (e, who) =>
    s.req('PUT', `${eventPath(e.uid)}/rsvps/${e.household}/payment`, { ...who, json: { paid_cents: 1500, method: 'cash' } }),
  'GET the replies CSV': (e, who) => s.req('GET', `${eventPath(e.uid)}/rsvps/export`, who),
  'GET the trip roster': (e, who) => s.req('GET', `${eventPath(e.uid)}/roster`, who),
  'GET the trip roster CSV': (e, who) => s.req('GET', `${eventPath(e.uid)}/roster/export`, who),
}

describe('event routes by the unit of the event', () => {
  const table = [
    ['packLeader', 'troop', 403],
    ['troopLeader', 'pack', 403],
    ['troopLeader', 'troop', 200],
    ['troopLeader', 'both', 200],
    ['packLeader', 'both', 200],
    ['admin', 'troop', 200],
    ['owner', 'pack', 200],
    ['breakGlass', 'troop', 200],
  ] as const
  for (const [action, act] of Object.entries(actions))
    for (const [who, unit, status] of table)
      it(`${action}: ${who} on a ${unit} event → ${status}`, async () => {
        const e = await event(unit)
        const res = await act(e, callers[who])
        expect(res.status).toBe(status)
        if (status === 403) {
          expect(res.body.code).toBe('unit_out_of_scope')
          expect((await s.req('GET', eventPath(e.uid), callers.admin)).status).toBe(200) // nothing changed
          const replies = await s.req('GET', `${eventPath(e.uid)}/rsvps`, callers.admin)
          expect(replies.body.replies[0].paid_cents ?? 0).toBe(0)
        }
      })

  it('a leader may not create an event for, or move one to, a unit they do not lead', async () => {
    const made = await s.req('POST', '/api/admin/calendar', { ...callers.packLeader, json: body('troop') })
    expect(made.status).toBe(403)
    expect(made.body.code).toBe('unit_out_of_scope')
    const own = await s.req('POST', '/api/admin/calendar', { ...callers.packLeader, json: body('pack') })
    expect(own.status).toBe(201)
    const moved = await s.req('PUT', eventPath(own.body.uid), { ...callers.packLeader, json: body('troop') })
    expect(moved.status).toBe(403)
    expect(moved.body.code).toBe('unit_out_of_scope')
  })

  it("a leader of another unit: 403 without a household; with one, the replies as a family (no one else's, no totals)", async () => {
    const e = await event('troop')
    const refused = await s.req('GET', `${eventPath(e.uid)}/rsvps`, callers.packLeader)
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('unit_out_of_scope')
    // A pack leader who is also a troop parent reads their own household's replies there.
    const parent = await s.as(ROLES.packLeader)
    await addHousehold(s.db, { unit: 'troop', email: null, scouts: 1, accounts: [parent.id] })
    const other = await s.req('GET', `${eventPath(e.uid)}/rsvps`, { cookie: parent.cookie })
    expect(other.status).toBe(200)
    expect(other.body.replies).toEqual([])
    expect(other.body.totals).toBeUndefined()
    const own = await s.req('GET', `${eventPath(e.uid)}/rsvps`, callers.troopLeader)
    expect(own.body.replies).toHaveLength(1)
    expect(own.body.totals).toBeDefined()
  })
})

describe('a local time the clocks skip', () => {
  const at = (json: Record<string, unknown>) =>
    s.req('POST', '/api/admin/calendar', { ...callers.admin, json: { title: 'Early hike', date: springForward(), unit: 'troop', ...json } })

  it('is 422 nonexistent_local_time as the start or the end of an event, on create and on replace', async () => {
    for (const json of [{ time: '02:30' }, { time: '01:00', end_time: '02:15' }, { time: '02:00', end_time: '04:00' }]) {
      const res = await at(json)
      expect(res.status).toBe(422)
      expect(res.body.code).toBe('nonexistent_local_time')
    }
    const ok = await at({ time: '03:30', end_time: '05:00' })
    expect(ok.status).toBe(201)
    const before = await at({ time: '01:30', end_time: '03:00' })
    expect(before.status).toBe(201)
    const moved = await s.req('PUT', eventPath(ok.body.uid), {
      ...callers.admin,
      json: { title: 'Early hike', date: springForward(), unit: 'troop', time: '02:45' },
    })
    expect(moved.status).toBe(422)
    expect(moved.body.code).toBe('nonexistent_local_time')
  })
})
