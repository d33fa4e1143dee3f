// Sign-ups on events that ask for replies, on the calendar the site keeps itself, with a real SMTP relay on loopback:
// the settings and their 422s, scouts named per household, places with a waitlist that moves up by itself (also under
// concurrent replies, never giving a place twice), the closing time, the permission slip and signing it again, slots,
// and payments with balances.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'
import { addDays, today } from '../dates.ts'

let relay: TestRelay
let s: TestServer
let leader: { cookie: string; email: string }
beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }, { mailRetryMs: 200 })
  leader = await s.as(ROLES.packLeader)
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const soon = (days: number) => addDays(today(), days)
const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const rsvps = (uid: string) => `${eventPath(uid)}/rsvps`

async function createEvent(json: Record<string, unknown>) {
  const res = await s.req('POST', '/api/admin/calendar', {
    cookie: leader.cookie,
    json: { title: 'Winter campout', date: soon(30), unit: 'pack', rsvp: true, ...json },
  })
  expect(res.status).toBe(201)
  return res.body.uid as string
}

type Family = Awaited<ReturnType<typeof familyAccount>>

/** A family account linked to a new pack household with `scouts` scouts. */
const family = (scouts = 1): Promise<Family> => familyAccount(s, { unit: 'pack', email: null, scouts })

const reply = (f: Family, uid: string, json: Record<string, unknown>) =>
  s.req('PUT', rsvps(uid), { cookie: f.cookie, json: { adults: 1, ...json } })
const yes = (f: Family, uid: string, scouts: number, extra: Record<string, unknown> = {}) =>
  reply(f, uid, { answer: 'yes', scouts, ...extra })
const leaderView = async (uid: string) => (await s.req('GET', rsvps(uid), { cookie: leader.cookie })).body
const statusOf = async (uid: string) => Object.fromEntries((await leaderView(uid)).replies.map((r: any) => [r.household_id, r.status]))

describe('sign-up settings on an event', () => {
  it('are kept with the event and shown in the list; 422 without rsvp, a closing time after the start, or a slot named twice', async () => {
    const signup = { capacity: 12, cost_cents: 2500, slots: [{ name: 'Driver (4 seats)', needed: 3 }] }
    const uid = await createEvent({ signup })
    const listed = (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.events.find((e: any) => e.uid === uid)
    expect(listed.signup).toEqual(signup)
    expect((await s.lastLog('calendar.create')).summary).toContain('asking families to sign up')

    const refuse = async (json: Record<string, unknown>, field: string) => {
      const res = await s.req('POST', '/api/admin/calendar', { cookie: leader.cookie, json: { title: 'x', date: soon(30), ...json } })
      expectDetail(res, 422)
      expect(res.body.detail).toStartWith(field)
    }
    await refuse({ signup: { capacity: 5 } }, 'signup:')
    await refuse({ rsvp: true, signup: { closes_at: `${soon(31)}T12:00:00Z` } }, 'signup.closes_at:')
    await refuse(
      {
        rsvp: true,
        signup: {
          slots: [
            { name: 'Snacks', needed: 1 },
            { name: 'snacks ', needed: 2 },
          ],
        },
      },
      'signup.slots:',
    )
    const bad = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'x', date: soon(30), rsvp: true, signup: { capacity: 0 } },
    })
    expect(bad.status).toBe(422)
  })
})

describe('who comes', () => {
  it('with per_scout, a reply names the household’s own scouts; their number is the scouts count (422 otherwise)', async () => {
    const uid = await createEvent({ signup: { per_scout: true } })
    const rivera = await family(2)
    const park = await family(1)
    const named = await yes(rivera, uid, 2, { scout_ids: rivera.scouts })
    expect(named.status).toBe(200)
    expect(named.body).toMatchObject({ scout_ids: rivera.scouts, scouts: 2, status: 'confirmed' })
    expectDetail(await yes(rivera, uid, 1, { scout_ids: park.scouts }), 422)
    const wrongCount = await yes(rivera, uid, 1, { scout_ids: rivera.scouts })
    expectDetail(wrongCount, 422)
    expect(wrongCount.body.detail).toStartWith('scouts:')
    expectDetail(await yes(rivera, uid, 1), 422)
    const plain = await createEvent({})
    expectDetail(await yes(rivera, plain, 1, { scout_ids: [rivera.scouts[0]] }), 422)
  })

  it('names only scouts of the event’s unit: a troop scout takes no place on a pack event (422), and may on one of both', async () => {
    const pack = await createEvent({ signup: { per_scout: true, capacity: 3 } })
    const both = await createEvent({ unit: 'both', signup: { per_scout: true } })
    const mixed = await family(2)
    const troop = await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()
    await s.db.updateTable('scouts').set({ unit_id: troop.id }).where('id', '=', mixed.scouts[1]).execute()
    const refused = await yes(mixed, pack, 2, { scout_ids: mixed.scouts })
    expect([refused.status, refused.body.detail]).toEqual([422, 'scout_ids: Kid1 is not in the pack, whose event this is'])
    expect((await leaderView(pack)).replies).toEqual([])
    expect((await yes(mixed, pack, 1, { scout_ids: [mixed.scouts[0]] })).body).toMatchObject({ status: 'confirmed', scouts: 1 })
    expect((await yes(mixed, both, 2, { scout_ids: mixed.scouts })).body).toMatchObject({ status: 'confirmed', scouts: 2 })
    expect([(await leaderView(pack)).unit, (await leaderView(both)).unit]).toEqual(['pack', 'both'])
  })

  it('past the places, a yes is waitlisted in the order answered and moves up by itself when a place frees, with a mail', async () => {
    const uid = await createEvent({ title: 'Cabin weekend', signup: { capacity: 3 } })
    const [a, b, c] = [await family(), await family(), await family()]
    await s.db.updateTable('households').set({ email: 'waiting.family@example.org' }).where('id', '=', b.household).execute()
    expect((await yes(a, uid, 2)).body.status).toBe('confirmed')
    expect((await yes(b, uid, 2)).body.status).toBe('waitlisted')
    expect((await yes(c, uid, 1)).body.status).toBe('waitlisted') // in line behind b, though one place is free
    expect((await leaderView(uid)).places).toEqual({ capacity: 3, confirmed: 2, waitlisted: 3, left: 1 })
    expect((await s.lastLog('calendar.rsvp')).summary).toContain('(waitlisted)')

    // A confirmed household asking for more places than are left keeps its own.
    const greedy = await yes(a, uid, 3)
    expectDetail(greedy, 409)
    expect(await statusOf(uid)).toEqual({ [a.household]: 'confirmed', [b.household]: 'waitlisted', [c.household]: 'waitlisted' })

    expect((await reply(a, uid, { answer: 'no', scouts: 0 })).status).toBe(200)
    expect(await statusOf(uid)).toEqual({ [a.household]: 'confirmed', [b.household]: 'confirmed', [c.household]: 'confirmed' })
    expect((await s.lastLog('calendar.rsvp_moved_up')).summary).toContain('moved up from the waitlist for “Cabin weekend”')
    const mail = await relay.waitFor('waiting.family@example.org')
    expect(mail.subject).toBe('A place came free: you are coming to Cabin weekend')
    // The household's own reply link: it opens its sign-up without an account.
    const link = linkIn(mail, 'http://127.0.0.1:1/reply/')
    const opened = await s.req('GET', `/api/reply/${link.split('/reply/')[1]}`)
    expect(opened.status).toBe(200)
    expect(opened.body.reply).toMatchObject({ status: 'confirmed' })
  })

  it('under concurrent replies gives each place once: exactly the capacity is confirmed, the rest wait in answer order', async () => {
    const uid = await createEvent({ title: 'Museum overnight', signup: { capacity: 4 } })
    const families = await Promise.all(Array.from({ length: 10 }, () => family()))
    const answers = await Promise.all(families.map((f) => yes(f, uid, 1)))
    expect(answers.every((r) => r.status === 200)).toBe(true)
    const rows = await s.db
      .selectFrom('rsvps')
      .select(['household_id', 'status', 'queued_at'])
      .where('uid', '=', uid)
      .orderBy('queued_at')
      .orderBy('household_id')
      .execute()
    expect(rows.filter((r) => r.status === 'confirmed').length).toBe(4)
    // The first four in line hold the places.
    expect(rows.map((r) => r.status)).toEqual([...Array(4).fill('confirmed'), ...Array(6).fill('waitlisted')])

    // Three drop at once: three move up, never more than the places.
    const dropping = rows.slice(0, 3).map((r) => families.find((f) => f.household === r.household_id)!)
    await Promise.all(dropping.map((f) => reply(f, uid, { answer: 'no', scouts: 0 })))
    const after = (await leaderView(uid)).places
    expect(after).toEqual({ capacity: 4, confirmed: 4, waitlisted: 3, left: 0 })
    const confirmed = await s.db
      .selectFrom('rsvps')
      .select('household_id')
      .where('uid', '=', uid)
      .where('answer', '=', 'yes')
      .where('status', '=', 'confirmed')
      .orderBy('queued_at')
      .execute()
    expect(confirmed.map((r) => r.household_id)).toEqual(rows.slice(3, 7).map((r) => r.household_id))
  })

  it('more places move the waitlist up when the leader changes the event', async () => {
    const uid = await createEvent({ title: 'Ski day', signup: { capacity: 1 } })
    const [a, b] = [await family(), await family()]
    await yes(a, uid, 1)
    expect((await yes(b, uid, 1)).body.status).toBe('waitlisted')
    const put = await s.req('PUT', eventPath(uid), {
      cookie: leader.cookie,
      json: { title: 'Ski day', date: soon(30), unit: 'pack', rsvp: true, signup: { capacity: 2 } },
    })
    expect(put.status).toBe(200)
    expect(await statusOf(uid)).toEqual({ [a.household]: 'confirmed', [b.household]: 'confirmed' })
  })

  it('refuses answers once the sign-up has closed (409)', async () => {
    const uid = await createEvent({ signup: { closes_at: new Date(Date.now() - 60_000).toISOString() } })
    const f = await family()
    const res = await yes(f, uid, 1)
    expectDetail(res, 409)
    expect(res.body.detail).toStartWith('Replies are closed: they closed ')
    const page = await s.req('GET', rsvps(uid), { cookie: f.cookie })
    expect(page.body.open).toBe(false)
  })
})

describe('the permission slip', () => {
  it('a yes needs it signed; the text, name, account, time and address are kept; a changed text asks for signing again', async () => {
    const text = 'My scout may attend the winter campout and ride with the drivers the pack arranges.'
    const uid = await createEvent({ title: 'Polar campout', signup: { permission_text: text } })
    const f = await family()
    await s.db.updateTable('households').set({ email: 'signer.family@example.org' }).where('id', '=', f.household).execute()
    const unsigned = await yes(f, uid, 1)
    expectDetail(unsigned, 422)
    expect(unsigned.body.detail).toStartWith('permission:')
    expect((await reply(f, uid, { answer: 'maybe', scouts: 1 })).status).toBe(200) // a maybe needs no signature

    const signed = await yes(f, uid, 1, { permission: { signed_name: ' Dana Rivera ' } })
    expect(signed.status).toBe(200)
    expect(signed.body.permission).toEqual({ signed_name: 'Dana Rivera', signed_at: expect.any(String), current: true })
    const kept = await s.db.selectFrom('rsvp_permissions').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow()
    expect(kept).toMatchObject({ text, signed_name: 'Dana Rivera', signed_by: f.email, address: '127.0.0.1' })
    expect((await yes(f, uid, 1, { note: 'Changed our note' })).status).toBe(200) // signed already on this text

    const put = await s.req('PUT', eventPath(uid), {
      cookie: leader.cookie,
      json: { title: 'Polar campout', date: soon(30), unit: 'pack', rsvp: true, signup: { permission_text: text + ' We will also swim.' } },
    })
    expect(put.status).toBe(200)
    const mine = await s.req('GET', rsvps(uid), { cookie: f.cookie })
    expect(mine.body.replies[0].permission.current).toBe(false)
    const mail = await relay.waitFor('signer.family@example.org')
    expect(mail.subject).toBe('Please sign the permission slip again: Polar campout')
    const again = await yes(f, uid, 1)
    expectDetail(again, 422)
    expect(again.body.detail).toContain('changed since you signed')
    expect((await yes(f, uid, 1, { permission: { signed_name: 'Dana Rivera' } })).body.permission.current).toBe(true)

    expectDetail(await yes(f, await createEvent({}), 1, { permission: { signed_name: 'Dana Rivera' } }), 422)
  })
})

describe('slots', () => {
  it('a household takes slots up to what is needed (409 beyond); families and leaders see filled counts; unknown slots 422', async () => {
    const uid = await createEvent({
      signup: {
        slots: [
          { name: 'Driver (4 seats)', needed: 2 },
          { name: 'Snacks', needed: 1 },
        ],
      },
    })
    const [a, b] = [await family(), await family()]
    expect((await yes(a, uid, 1, { slots: [{ name: 'driver (4 seats)', count: 1 }] })).body.slots).toEqual([
      { name: 'Driver (4 seats)', count: 1 },
    ])
    const over = await yes(b, uid, 1, { slots: [{ name: 'Driver (4 seats)', count: 2 }] })
    expectDetail(over, 409)
    expect(over.body.detail).toContain('needs only 1 more')
    expect(
      (
        await yes(b, uid, 1, {
          slots: [
            { name: 'Driver (4 seats)', count: 1 },
            { name: 'Snacks', count: 1 },
          ],
        })
      ).status,
    ).toBe(200)
    expectDetail(await yes(b, uid, 1, { slots: [{ name: 'Tent setup', count: 1 }] }), 422)
    const familyView = await s.req('GET', rsvps(uid), { cookie: a.cookie })
    expect(familyView.body.slots).toEqual([
      { name: 'Driver (4 seats)', needed: 2, filled: 2 },
      { name: 'Snacks', needed: 1, filled: 1 },
    ])
    // Saying no gives the slots up.
    expect((await reply(b, uid, { answer: 'no', scouts: 0 })).body.slots).toEqual([])
    expect((await leaderView(uid)).slots).toEqual([
      { name: 'Driver (4 seats)', needed: 2, filled: 1 },
      { name: 'Snacks', needed: 1, filled: 0 },
    ])
  })
})

describe('PUT /api/admin/calendar/{uid}/rsvps/{household_id}/payment', () => {
  it('records what a household paid (logged); owed is cost × scouts confirmed; balances per household and in total', async () => {
    const uid = await createEvent({ title: 'Camporee', signup: { cost_cents: 3500, capacity: 3 } })
    const [a, b] = [await family(), await family()]
    await yes(a, uid, 2)
    await yes(b, uid, 2) // waitlisted: owes nothing yet
    const pay = (household: number, json: Record<string, unknown>, cookie = leader.cookie) =>
      s.req('PUT', `${rsvps(uid)}/${household}/payment`, { cookie, json })
    const paid = await pay(a.household, { paid_cents: 5000, method: 'check', note: 'Check 1042' })
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({ owed_cents: 7000, paid_cents: 5000, balance_cents: 2000, method: 'check', note: 'Check 1042' })
    expect((await s.lastLog('calendar.payment')).summary).toStartWith('Parent without mail: paid $50.00 in all (check) for “Camporee”')
    const view = await leaderView(uid)
    expect(view.money).toEqual({ owed_cents: 7000, paid_cents: 5000, balance_cents: 2000 })
    expect(view.replies.find((r: any) => r.household_id === b.household)).toMatchObject({ owed_cents: 0, balance_cents: 0 })
    // The family sees its own balance.
    const own = await s.req('GET', rsvps(uid), { cookie: a.cookie })
    expect(own.body.replies[0]).toMatchObject({ owed_cents: 7000, paid_cents: 5000, balance_cents: 2000 })
    expect(own.body.money).toBeUndefined()
    // Paying the rest replaces the total.
    expect((await pay(a.household, { paid_cents: 7000, method: 'cash' })).body.balance_cents).toBe(0)

    expect((await pay(a.household, { paid_cents: 1, method: 'card' })).status).toBe(422)
    expect((await pay(a.household, { paid_cents: -1, method: 'cash' })).status).toBe(422)
    expect((await pay(a.household, { paid_cents: 1, method: 'cash' }, a.cookie)).status).toBe(403)
    const stranger = await family()
    expectDetail(await pay(stranger.household, { paid_cents: 1, method: 'cash' }), 404)
    const free = await createEvent({})
    await yes(a, free, 1)
    expectDetail(
      await s.req('PUT', `${rsvps(free)}/${a.household}/payment`, { cookie: leader.cookie, json: { paid_cents: 1, method: 'cash' } }),
      409,
    )
  })
})

describe('the waitlist mail', () => {
  it('is not sent to the household that moved itself up by answering', async () => {
    const uid = await createEvent({ title: 'Quiet move', signup: { capacity: 1 } })
    const f = await family()
    await s.db.updateTable('households').set({ email: 'self.mover@example.org' }).where('id', '=', f.household).execute()
    expect((await yes(f, uid, 1)).body.status).toBe('confirmed')
    // Mail is queued in the transaction of the change, so the outbox already holds any there is.
    expect(await s.db.selectFrom('mail_outbox').select('id').where('to_address', '=', 'self.mover@example.org').execute()).toEqual([])
  })
})
