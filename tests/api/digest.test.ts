// The weekly digest through a real SMTP relay on loopback: at mail.digest_day and mail.digest_hour each household with
// something coming gets its units' next 14 days and live announcements (with reply and unsubscribe links that work),
// unsubscribed addresses and households with nothing to say get nothing, and a day's digest goes once.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { toICalendar } from '../../server/calendar/event.ts'
import { utcToZoned } from '../../server/calendar/zone.ts'
import { WEEKDAYS } from '../../server/formats.ts'
import { nextDigestAt, previousDigestAt } from '../../server/messages/digest.ts'
import { nowIso } from '../../server/schemas.ts'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN, eventually, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'

const ZONE = 'America/Chicago'
let relay: TestRelay
let s: TestServer

beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' })
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

async function event(uid: string, title: string, date: string, unit: 'pack' | 'troop' | 'both', asking = false) {
  const ics = toICalendar(uid, { title, date, time: '10:00', unit }, ZONE)
  await s.db
    .insertInto('calendar_objects')
    .values({ uid, url: `/${uid}.ics`, etag: null, ics, synced_at: nowIso() })
    .execute()
  if (asking)
    await s.db
      .insertInto('rsvp_events')
      .values({
        uid,
        title,
        date,
        time: '10:00',
        location: null,
        starts_at: `${date}T16:00:00.000Z`,
        asking: 1,
        asked_by: 'test',
        asked_at: nowIso(),
        gone_at: null,
      })
      .execute()
}

/** Sets the digest's day and hour to those of the instant `at` in the site's time zone. */
async function digestAt(at: number) {
  const here = utcToZoned(at, ZONE)
  const due = { day: WEEKDAYS[(new Date(`${here.date}T12:00:00Z`).getUTCDay() + 6) % 7], hour: Number(here.time.slice(0, 2)) }
  expect((await setting('mail.digest_day', due.day)).status).toBe(200)
  expect((await setting('mail.digest_hour', due.hour)).status).toBe(200)
  return due
}

const setting = (key: string, value: unknown) => s.req('PUT', `/api/admin/settings/${key}`, { token: ADMIN_TOKEN, json: { value } })

describe('the weekly digest', () => {
  it("goes at its day and hour to each household with something coming: its units' events and announcements, with working links", async () => {
    const [packFamily, unsubscribed, troopFamily] = [uniqueEmail('pack-family'), uniqueEmail('unsubscribed'), uniqueEmail('troop-family')]
    await household('pack', packFamily)
    await household('pack', unsubscribed)
    await household('troop', troopFamily)
    await s.db
      .insertInto('mail_subscriptions')
      .values({ email: unsubscribed, token: 'unsubscribed-token', created_at: nowIso(), unsubscribed_at: nowIso() })
      .execute()
    await event('derby@test', 'Pinewood [Derby]', addDays(today(), 3), 'pack', true)
    await event('far@test', 'Far away', addDays(today(), 20), 'pack')
    await event('troop-hike@test', 'Troop hike', addDays(today(), 4), 'troop')
    await s.db
      .insertInto('announcements')
      .values({
        message: 'Popcorn orders are due',
        starts_at: new Date(Date.now() - 3_600_000).toISOString(),
        ends_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        created_at: nowIso(),
        created_by: 'test',
        revoked_at: null,
        unit: 'pack',
      })
      .execute()
    const owner = await s.as(ROLES.owner)
    // The next digest is within the hour: what it shows is what goes out then.
    await digestAt(Date.now() + 3_600_000)
    const shown = await s.req('GET', '/api/admin/messages/digest', { cookie: owner.cookie })
    expect(shown.status).toBe(200)
    const byEmail = (email: string) => shown.body.households.find((h: any) => h.emails.includes(email))
    expect(byEmail(packFamily)).toMatchObject({
      events: [{ uid: 'derby@test', title: 'Pinewood [Derby]', unit: 'pack', asks_reply: true, time: '10:00' }],
      announcements: ['Popcorn orders are due'],
    })
    expect(byEmail(troopFamily).events.map((e: any) => e.uid)).toEqual(['troop-hike@test'])
    expect(byEmail(unsubscribed)).toBeUndefined()

    expect(Date.parse(shown.body.next_at) - Date.now()).toBeLessThanOrEqual(3_600_000)
    // The digest is due now: its day today and its hour this hour, in the site's time zone.
    const due = await digestAt(Date.now())
    s.startDigest()
    const [mail, troopMail] = [await relay.waitFor(packFamily), await relay.waitFor(troopFamily)]
    expect(mail.to).toEqual([packFamily])
    expect(mail.subject).toBe('This week at Pack & Troop')
    // The text part reads as plain text: no Markdown escapes or marks; the HTML part shows the title as written.
    expect(mail.text).toContain('Pinewood [Derby] (pack)')
    expect(mail.text).not.toContain('\\')
    expect(mail.text).not.toContain('**')
    expect(mail.text).not.toContain('## ')
    expect(mail.html).toContain('Pinewood [Derby]')
    expect(mail.html).toContain('Popcorn orders are due')
    const reply = linkIn(mail, 'http://127.0.0.1:1/reply/')
    expect(mail.html).toContain(`href="${reply}"`)
    expect(mail.text).not.toContain('Far away')
    expect(mail.text).not.toContain('Troop hike')
    expect(troopMail.text).toContain('Troop hike')
    expect(troopMail.text).not.toContain('Popcorn')
    // The household's own reply link opens the event without an account.
    const opened = await s.req('GET', `/api/reply/${reply.split('/reply/')[1]}`)
    expect(opened.body.event.uid).toBe('derby@test')
    expect(opened.body.household.parent_name).toBe(`Parent ${packFamily}`)
    // The unsubscribe link works.
    const token = linkIn(mail, 'http://127.0.0.1:1/unsubscribe/').split('#')[1]
    expect((await s.req('POST', `/api/unsubscribe/${token}`)).body.email).toBe(packFamily)
    expect((await s.lastLog('messages.digest')).summary).toMatch(/^Weekly digest for \d{4}-\d{2}-\d{2} to 2 addresses$/)
    expect(relay.received.some((m) => m.to.includes(unsubscribed))).toBe(false)

    // Once a day: a setting change wakes the schedule, which finds the day's digest already sent.
    const count = relay.received.length
    expect((await setting('mail.digest_hour', due.hour)).status).toBe(200)
    await setting('mail.digest_day', due.day)
    await eventually(async () => (await s.db.selectFrom('digest_runs').selectAll().execute()).length === 1)
    const again = await s.req('GET', '/api/admin/messages/digest', { cookie: owner.cookie })
    expect(Date.parse(again.body.next_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    expect(relay.received.length).toBe(count)
    expect(await s.db.selectFrom('mail_outbox').select('id').where('kind', '=', 'digest').execute()).toHaveLength(2)
  })

  it('mail.digest_day none turns it off (next_at null); a bad day or hour is 422', async () => {
    const owner = await s.as(ROLES.owner)
    expect((await setting('mail.digest_day', 'someday')).status).toBe(422)
    expect((await setting('mail.digest_hour', 24)).status).toBe(422)
    expect((await setting('mail.digest_day', 'none')).status).toBe(200)
    expect((await s.req('GET', '/api/admin/messages/digest', { cookie: owner.cookie })).body.next_at).toBeNull()
  })
})

describe('digest times', () => {
  it('the previous and next digest instants are the day and hour in the site time zone, across a clock change', () => {
    // Sunday 1 Nov 2026 is the day US clocks go back: 6 PM Chicago is 00:00 UTC on the 2nd (CST, UTC−6).
    const monday = Date.parse('2026-11-03T12:00:00Z')
    expect(new Date(previousDigestAt(monday, 'sunday', 18, ZONE)!).toISOString()).toBe('2026-11-02T00:00:00.000Z')
    expect(new Date(nextDigestAt(monday, 'sunday', 18, ZONE)!).toISOString()).toBe('2026-11-09T00:00:00.000Z')
    // The Sunday before, still CDT (UTC−5).
    expect(new Date(previousDigestAt(Date.parse('2026-10-30T12:00:00Z'), 'sunday', 18, ZONE)!).toISOString()).toBe(
      '2026-10-25T23:00:00.000Z',
    )
    expect(previousDigestAt(monday, 'none', 18, ZONE)).toBeNull()
  })
})

const household = (unit: 'pack' | 'troop', email: string) => addHousehold(s.db, { unit, email })
