// Deleting an event before it starts cancels its sign-ups: every household that said yes (confirmed or waitlisted) is
// mailed "Cancelled: …" (no link: the event is gone), the trip fees charged for it are reversed whether or not its
// sign-up had closed, and households that said no hear nothing. An event already under way keeps its charges.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { startRelay, type TestRelay } from '../mail.ts'
import { addDays, today } from '../dates.ts'

let s: TestServer
let relay: TestRelay
let leader: { cookie: string }
beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' })
  leader = await s.as(ROLES.packLeader)
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`

async function balance(household: number) {
  const res = await s.req('GET', '/api/admin/money/accounts?unit=pack', { cookie: leader.cookie })
  return res.body.accounts.find((a: any) => a.household_id === household && !('scout_id' in a))?.balance_cents ?? 0
}

describe('deleting an event with sign-ups', () => {
  it('mails each household that said yes, confirmed or waiting, reverses their trip fees, and tells no one who said no', async () => {
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Lake campout', date: addDays(today(), 20), unit: 'pack', rsvp: true, signup: { capacity: 1, cost_cents: 4000 } },
    })
    expect(created.status).toBe(201)
    const uid = created.body.uid as string
    const coming = await familyAccount(s, { unit: 'pack', email: 'coming.family@example.org', scouts: 1 })
    const waiting = await familyAccount(s, { unit: 'pack', email: 'waiting.family@example.org', scouts: 1 })
    const away = await familyAccount(s, { unit: 'pack', email: 'away.family@example.org', scouts: 1 })
    for (const [f, answer] of [
      [coming, 'yes'],
      [waiting, 'yes'],
      [away, 'no'],
    ] as const) {
      const res = await s.req('PUT', `${eventPath(uid)}/rsvps`, {
        cookie: f.cookie,
        json: { answer, adults: 1, scouts: answer === 'yes' ? 1 : 0 },
      })
      expect(res.status).toBe(200)
    }
    expect(await balance(coming.household)).toBe(4000)
    expect(await balance(waiting.household)).toBe(0)

    const deleted = await s.req('DELETE', eventPath(uid), { cookie: leader.cookie })
    expect(deleted.status).toBe(200)
    for (const to of ['coming.family@example.org', 'waiting.family@example.org']) {
      const mail = await relay.waitFor(to)
      expect(mail.subject).toBe('Cancelled: Lake campout')
      expect(mail.text).toContain('your household\u2019s sign-up is cancelled'.replace('\u2019', "'"))
      expect(mail.text).not.toContain('/reply/')
    }
    expect(await balance(coming.household)).toBe(0)
    expect((await s.lastLog('money.trip_fee')).summary).toContain('reversed $40.00')
    expect((await s.lastLog('money.trip_fee')).summary).toContain('event cancelled')
    // The queued mails went before this check, and none was for the household that said no.
    const queued = await s.db.selectFrom('mail_outbox').select('to_address').where('subject', '=', 'Cancelled: Lake campout').execute()
    const told = ['coming.family@example.org', coming.email, 'waiting.family@example.org', waiting.email]
    expect(queued.map((m) => m.to_address).sort()).toEqual(told.sort())
    expect(told).not.toContain(away.email)
    expect((await s.req('DELETE', eventPath(uid), { cookie: leader.cookie })).status).toBe(404)
  })

  it('reverses trip fees even after the sign-up closed, while the event is still ahead', async () => {
    const date = addDays(today(), 10)
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Museum trip', date, unit: 'pack', rsvp: true, signup: { cost_cents: 1500 } },
    })
    const uid = created.body.uid as string
    const f = await familyAccount(s, { unit: 'pack', email: 'museum.family@example.org', scouts: 2 })
    expect(
      (await s.req('PUT', `${eventPath(uid)}/rsvps`, { cookie: f.cookie, json: { answer: 'yes', adults: 1, scouts: 2 } })).status,
    ).toBe(200)
    expect(await balance(f.household)).toBe(3000)
    // The sign-up closed yesterday: leaving would keep the charge, but a cancelled event owes nothing.
    const signup = JSON.stringify({ cost_cents: 1500, closes_at: new Date(Date.now() - 86_400_000).toISOString() })
    await s.db.updateTable('rsvp_events').set({ signup }).where('uid', '=', uid).execute()
    expect((await s.req('DELETE', eventPath(uid), { cookie: leader.cookie })).status).toBe(200)
    expect(await balance(f.household)).toBe(0)
    expect((await relay.waitFor('museum.family@example.org')).subject).toBe('Cancelled: Museum trip')
  })
})
