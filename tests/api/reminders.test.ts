// Event reminders through the mail outbox: yes and maybe households 24 hours before the start, households the event
// concerns that have not answered 48 hours before replies close; each once, only to those in that position when it
// fell due, never after the moment it is for; the leader's to-do while none went; and the schedule delivering through
// a real SMTP relay on loopback. Moments are given to sendReminders, never waited for.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { REMIND_BEFORE, sendReminders } from '../../server/calendar/reminders.ts'
import { utcToZoned } from '../../server/calendar/zone.ts'
import { getSetting } from '../../server/settings/registry.ts'
import { ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'
import { addDays, today } from '../dates.ts'

let relay: TestRelay
let s: TestServer
let leader: { cookie: string }
beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }, { mailRetryMs: 200 })
  leader = await s.as(ROLES.packLeader)
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const MINUTE = 60_000

async function createEvent(json: Record<string, unknown>) {
  const res = await s.req('POST', '/api/admin/calendar', { cookie: leader.cookie, json: { unit: 'pack', rsvp: true, ...json } })
  expect(res.status).toBe(201)
  const { starts_at } = await s.db.selectFrom('rsvp_events').select('starts_at').where('uid', '=', res.body.uid).executeTakeFirstOrThrow()
  return { uid: res.body.uid as string, start: Date.parse(starts_at) }
}

async function family(unit: 'pack' | 'troop', parent_name: string) {
  const email = uniqueEmail('family')
  const household = await addHousehold(s.db, { unit, email, parent_name })
  return { household, email }
}

/** A reply written as if given at `at`: the reminders look at when a household answered. */
async function answered(uid: string, household: number, answer: 'yes' | 'maybe' | 'no', at: number) {
  await s.db
    .insertInto('rsvps')
    .values({
      uid,
      household_id: household,
      answer,
      adults: 1,
      scouts: answer === 'no' ? 0 : 1,
      note: null,
      answered_by: 'test',
      answered_at: new Date(at).toISOString(),
    })
    .execute()
}

const outboxTo = (email: string) =>
  s.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', email).execute()

describe('sendReminders', () => {
  it('reminds unanswered households of the unit 48 h before replies close, and yes and maybe households 24 h before the start, once each', async () => {
    const date = addDays(today(), 20)
    const closes = `${addDays(date, -5)}T21:00:00Z`
    const { uid, start } = await createEvent({
      title: 'Spring campout',
      date,
      time: '10:00',
      location: 'Camp Oak',
      signup: { closes_at: closes },
    })
    const closeDue = Date.parse(closes) - REMIND_BEFORE.before_close
    const startDue = start - REMIND_BEFORE.before_start
    const coming = await family('pack', 'Ava Coming')
    const maybe = await family('pack', 'Ben Maybe')
    const no = await family('pack', 'Cal No')
    const silent = await family('pack', 'Dee Silent')
    const troop = await family('troop', 'Eve Troop')
    const late = await family('pack', 'Fay Late')
    const asked = closeDue - 24 * 60 * MINUTE
    await answered(uid, coming.household, 'yes', asked)
    await answered(uid, maybe.household, 'maybe', asked)
    await answered(uid, no.household, 'no', asked)
    // Said yes after the reminder fell due: it would only repeat what they just said.
    await answered(uid, late.household, 'yes', startDue + MINUTE)

    const early = await sendReminders(s.db, closeDue - MINUTE, s.url)
    expect(early.queued).toBe(0)
    expect(early.next).toBeLessThanOrEqual(closeDue)

    expect((await sendReminders(s.db, closeDue + MINUTE, s.url)).queued).toBe(1)
    const [closing] = await outboxTo(silent.email)
    expect(closing.subject).toBe('Replies close soon: Spring campout')
    expect(closing.text_body).toContain('Your household has not replied yet.')
    for (const f of [coming, maybe, no, troop, late]) expect(await outboxTo(f.email)).toEqual([])
    expect((await s.lastLog('calendar.reminder')).summary).toBe('Reminded 1 household of “Spring campout” (replies close within 48 hours)')
    const again = await sendReminders(s.db, closeDue + 2 * MINUTE, s.url)
    expect(again.queued).toBe(0)
    expect(again.next).toBe(startDue)

    expect((await sendReminders(s.db, startDue + 2 * MINUTE, s.url)).queued).toBe(2)
    const [yes] = await outboxTo(coming.email)
    expect(yes.subject).toBe('Tomorrow: Spring campout')
    expect(yes.text_body).toContain('Camp Oak')
    expect(yes.text_body).toContain('Your household said you are coming.')
    expect((await outboxTo(maybe.email))[0].text_body).toContain('Your household said maybe')
    for (const f of [no, troop, late]) expect(await outboxTo(f.email)).toEqual([])
    expect(await outboxTo(silent.email)).toHaveLength(1)
    expect((await sendReminders(s.db, startDue + 3 * MINUTE, s.url)).queued).toBe(0)
    expect(
      await s.db.selectFrom('rsvp_reminders').select(['household_id', 'kind']).where('uid', '=', uid).orderBy('household_id').execute(),
    ).toEqual([
      { household_id: coming.household, kind: 'before_start' },
      { household_id: maybe.household, kind: 'before_start' },
      { household_id: silent.household, kind: 'before_close' },
    ])
  })

  it('sends nothing once the moment it is for has passed: a service down through the window does not remind after the start', async () => {
    const date = addDays(today(), 25)
    const { uid, start } = await createEvent({ title: 'Hike', date, time: '09:00' })
    const f = await family('pack', 'Gus Gone')
    await answered(uid, f.household, 'yes', start - 3 * REMIND_BEFORE.before_start)
    expect((await sendReminders(s.db, start + MINUTE, s.url)).queued).toBe(0)
    expect(await outboxTo(f.email)).toEqual([])
  })
})

describe('the reminders on the event for leaders, and the schedule', () => {
  it('lists who is due a reminder as a to-do until one goes; the schedule then delivers it through the relay', async () => {
    // Starts in 20 hours: the 24-hour reminder is due now, for the household that said yes two days ago.
    const startsAt = utcToZoned(Date.now() + 20 * 60 * MINUTE, await getSetting(s.db, 'site.timezone'))
    const { uid } = await createEvent({ title: 'Pack meeting', date: startsAt.date, time: startsAt.time, unit: 'both' })
    const f = await family('pack', 'Hal Here')
    await answered(uid, f.household, 'yes', Date.now() - 2 * REMIND_BEFORE.before_start)

    const before = (await s.req('GET', `${eventPath(uid)}/rsvps`, { cookie: leader.cookie })).body
    const due = before.reminders.find((r: any) => r.kind === 'before_start')
    expect(due).toMatchObject({ reminded: 0, to_remind: ['Hal Here'] })

    s.startReminders()
    const mail = await relay.waitFor(f.email)
    expect(mail.subject).toBe('Tomorrow: Pack meeting')
    // The household's own reply link: it opens its reply without an account.
    const token = linkIn(mail, 'http://127.0.0.1:1/reply/').split('/reply/')[1]
    const opened = await s.req('GET', `/api/reply/${token}`)
    expect(opened.body).toMatchObject({ household: { id: f.household }, reply: { answer: 'yes' } })
    const after = (await s.req('GET', `${eventPath(uid)}/rsvps`, { cookie: leader.cookie })).body
    expect(after.reminders.find((r: any) => r.kind === 'before_start')).toMatchObject({ reminded: 1, to_remind: [] })
  })
})
