// A split yes: when a household's scouts outnumber the places left, the family may have the first ones confirmed now
// (in the order chosen) and the rest waitlisted. Every view counts the same (the list, the replies and their CSV, the
// trip roster, the family page, the reply link); the waiting scouts move up one by one as places free, with a mail;
// a split that cannot mean anything is refused (422). Through a real SMTP relay on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { replyToken } from '../../server/calendar/reply-token.ts'
import { expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { startRelay, type TestRelay } from '../mail.ts'
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

const rsvps = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`

async function createEvent(title: string, signup: Record<string, unknown> | null) {
  const res = await s.req('POST', '/api/admin/calendar', {
    cookie: leader.cookie,
    json: { title, date: addDays(today(), 30), unit: 'pack', rsvp: true, ...(signup ? { signup } : {}) },
  })
  expect(res.status).toBe(201)
  return res.body.uid as string
}

type Family = Awaited<ReturnType<typeof familyAccount>>
const family = (scouts = 1): Promise<Family> => familyAccount(s, { unit: 'pack', email: null, scouts })
const reply = (f: Family, uid: string, json: Record<string, unknown>) =>
  s.req('PUT', rsvps(uid), { cookie: f.cookie, json: { adults: 1, ...json } })
const leaderView = async (uid: string) => (await s.req('GET', rsvps(uid), { cookie: leader.cookie })).body
const replyOf = async (uid: string, household: number) => (await leaderView(uid)).replies.find((r: any) => r.household_id === household)

describe('a split yes', () => {
  it('confirms the first scouts chosen and waitlists the rest; every view agrees; they move up one by one with a mail', async () => {
    const uid = await createEvent('Split campout', { per_scout: true, capacity: 3, cost_cents: 1000 })
    const [a, b, c, d] = [await family(), await family(), await family(3), await family()]
    await s.db.updateTable('households').set({ email: 'split.family@example.org' }).where('id', '=', c.household).execute()
    for (const f of [a, b]) expect((await reply(f, uid, { answer: 'yes', scouts: 1, scout_ids: f.scouts })).body.status).toBe('confirmed')

    // 2 of 3 places taken; the household of 3 chooses: the last of its scouts first, then the other two.
    const chosen = [c.scouts[2], c.scouts[0], c.scouts[1]]
    const split = await reply(c, uid, { answer: 'yes', scouts: 3, scout_ids: chosen, split: true })
    expect(split.status).toBe(200)
    expect(split.body).toMatchObject({
      status: 'confirmed',
      scout_ids: chosen,
      waitlisted_scouts: 2,
      waitlisted_scout_ids: [c.scouts[0], c.scouts[1]],
      owed_cents: 1000,
    })
    expect((await s.lastLog('calendar.rsvp')).summary).toContain('(2 waitlisted)')

    // The leader's view, the list, the CSV, the trip roster, the family page and the reply link all count 3 coming, 2 waiting.
    const view = await leaderView(uid)
    expect(view.places).toEqual({ capacity: 3, confirmed: 3, waitlisted: 2, left: 0 })
    expect(view.totals.yes).toEqual({ households: 3, adults: 3, scouts: 3 })
    expect(view.totals.waitlisted).toEqual({ households: 1, adults: 0, scouts: 2 })
    expect(view.money).toEqual({ owed_cents: 3000, paid_cents: 0, balance_cents: 3000 })
    const listed = (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.events.find((e: any) => e.uid === uid)
    expect(listed.replies.yes.scouts).toBe(3)
    expect(listed.replies.waitlisted.scouts).toBe(2)
    const csv = await s.req('GET', `${rsvps(uid)}/export`, { cookie: leader.cookie })
    expect(csv.text).toContain('"yes (2 waitlisted)","1","3"')
    expect(csv.text).toContain('"Total: 3 households","yes","3","3"')
    expect(csv.text).toContain('"Total: 1 household","waitlisted","0","2"')
    const roster = (await s.req('GET', `/api/admin/calendar/${encodeURIComponent(uid)}/roster`, { cookie: leader.cookie })).body
    expect(roster.coming).toEqual({ households: 3, adults: 3, scouts: 3 })
    expect(roster.scouts.map((x: any) => x.id).sort()).toEqual([a.scouts[0], b.scouts[0], c.scouts[2]].sort())
    const rosterCsv = await s.req('GET', `/api/admin/calendar/${encodeURIComponent(uid)}/roster/export`, { cookie: leader.cookie })
    expect(rosterCsv.text.split('\n').filter((l: string) => l.includes('"yes (2 waitlisted)","3","1"'))).toHaveLength(1)
    const family_ = (await s.req('GET', '/api/admin/family', { cookie: c.cookie })).body.events.find((e: any) => e.uid === uid)
    expect(family_.places).toEqual(view.places)
    expect(family_.replies[0]).toMatchObject({ waitlisted_scouts: 2, status: 'confirmed' })
    const link = await s.req('GET', `/api/reply/${await replyToken(s.db, c.household, uid)}`)
    expect(link.body.event.places).toEqual(view.places)
    expect(link.body.reply).toMatchObject({ waitlisted_scouts: 2, waitlisted_scout_ids: [c.scouts[0], c.scouts[1]] })

    // Another household's yes waits behind the split household's scouts.
    expect((await reply(d, uid, { answer: 'yes', scouts: 1, scout_ids: d.scouts })).body.status).toBe('waitlisted')

    // One place frees: the next of the split household's scouts moves up, and the family is mailed.
    expect((await reply(a, uid, { answer: 'no', scouts: 0, scout_ids: [] })).status).toBe(200)
    expect(await replyOf(uid, c.household)).toMatchObject({ waitlisted_scouts: 1, waitlisted_scout_ids: [c.scouts[1]], owed_cents: 2000 })
    expect((await leaderView(uid)).places).toEqual({ capacity: 3, confirmed: 3, waitlisted: 2, left: 0 })
    expect((await s.lastLog('calendar.rsvp_moved_up')).summary).toContain('1 scout (1 still waiting) moved up from the waitlist')
    expect((await relay.waitFor('split.family@example.org')).subject).toBe(
      'A place came free: more of your scouts are coming to Split campout',
    )

    // The last place frees: its last scout moves up, before the household that answered later.
    // (The relay finds the first mail to an address: the next one goes to a new address.)
    await s.db.updateTable('households').set({ email: 'split.family.all@example.org' }).where('id', '=', c.household).execute()
    expect((await reply(b, uid, { answer: 'no', scouts: 0, scout_ids: [] })).status).toBe(200)
    expect(await replyOf(uid, c.household)).toMatchObject({ status: 'confirmed', waitlisted_scouts: 0, waitlisted_scout_ids: [] })
    expect(await replyOf(uid, d.household)).toMatchObject({ status: 'waitlisted', waitlisted_scouts: 1 })
    const after = await leaderView(uid)
    expect(after.places).toEqual({ capacity: 3, confirmed: 3, waitlisted: 1, left: 0 })
    expect(after.totals.yes).toEqual({ households: 1, adults: 1, scouts: 3 })
    expect((await relay.waitFor('split.family.all@example.org')).subject).toBe('A place came free: you are coming to Split campout')
  })

  it('is the same body rule through a reply link and with scouts only counted; a confirmed household adds scouts that wait', async () => {
    const uid = await createEvent('Split by link', { capacity: 2 })
    const [e, f] = [await family(), await family(3)]
    expect((await reply(e, uid, { answer: 'yes', scouts: 1 })).body.status).toBe('confirmed')
    const token = await replyToken(s.db, f.household, uid)
    const put = await s.req('PUT', `/api/reply/${token}`, { json: { answer: 'yes', adults: 1, scouts: 3, split: true } })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ status: 'confirmed', waitlisted_scouts: 2, waitlisted_scout_ids: null })
    expect((await leaderView(uid)).places).toEqual({ capacity: 2, confirmed: 2, waitlisted: 2, left: 0 })

    // The same reply without split cannot take more places than it holds (409), and keeps them.
    const together = await reply(f, uid, { answer: 'yes', scouts: 3 })
    expectDetail(together, 409)
    expect(together.body.detail).toContain('split: true')
    expect(await replyOf(uid, f.household)).toMatchObject({ status: 'confirmed', waitlisted_scouts: 2 })
    // Fewer scouts than it holds: confirmed, nothing waits.
    expect((await reply(f, uid, { answer: 'yes', scouts: 1 })).body).toMatchObject({ status: 'confirmed', waitlisted_scouts: 0 })
    // A split where every scout fits is simply confirmed (places may have freed since the form was drawn).
    expect((await reply(e, uid, { answer: 'no', scouts: 0 })).status).toBe(200)
    expect((await reply(f, uid, { answer: 'yes', scouts: 2, split: true })).body).toMatchObject({
      status: 'confirmed',
      waitlisted_scouts: 0,
    })
  })

  it('is refused (422, naming split) when it cannot mean anything', async () => {
    const full = await createEvent('Full trip', { capacity: 1 })
    const plain = await createEvent('Open day', null)
    const [g, h, k] = [await family(), await family(2), await family(2)]
    const refused = async (res: Awaited<ReturnType<typeof reply>>, words: string) => {
      expectDetail(res, 422)
      expect(res.body.detail).toStartWith('split:')
      expect(res.body.detail).toContain(words)
    }
    await refused(await reply(h, plain, { answer: 'yes', scouts: 2, split: true }), 'no limit on places')
    await refused(await reply(h, full, { answer: 'maybe', scouts: 2, split: true }), 'only a yes')
    await refused(await reply(g, full, { answer: 'yes', scouts: 1, split: true }), 'one scout')
    expect((await reply(g, full, { answer: 'yes', scouts: 1 })).body.status).toBe('confirmed')
    await refused(await reply(h, full, { answer: 'yes', scouts: 2, split: true }), 'the places are taken')
    // All wait together, as without split.
    expect((await reply(h, full, { answer: 'yes', scouts: 2 })).body.status).toBe('waitlisted')
    expect((await reply(g, full, { answer: 'no', scouts: 0 })).status).toBe(200)
    // A place is free, but h waits for it first.
    await refused(await reply(k, full, { answer: 'yes', scouts: 2, split: true }), 'others already wait')
    expect(await replyOf(full, k.household)).toBeUndefined()
  })
})
