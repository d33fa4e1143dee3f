// Browser test at phone width, with a real SMTP relay on loopback: under an event's replies the leader sees who has not
// answered (with phone and email), reminds them with one button, and the mail reaches exactly those households; the
// headcount counts scouts on an event with places, the waitlist apart (its slot not filled); a weekend's trip roster
// shows its date range and checks health forms on its last day.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { dayWords } from '../../server/words.ts'
import { addDays, today } from '../dates.ts'
import { ROLES } from '../helpers.ts'
import { healthFormUntil } from '../../server/roster/health-form.ts'
import { addHousehold, familyAccount } from '../households.ts'
import { startRelay, type TestRelay } from '../mail.ts'
import { browserSuite, screenshot, seriousViolations } from './browser.ts'

let relay: TestRelay
beforeAll(async () => (relay = await startRelay()))
afterAll(() => relay?.close())
const suite = browserSuite(() => ({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }))

const LEADER = 'akela.remind@example.org'
const QUIET = 'quiet.remind@example.org'

describe('who has not answered, at phone width', () => {
  it('the leader sees the households without a reply and reminds them; the mail reaches exactly them', async () => {
    const s = suite.s
    await s.person({ ...ROLES.packLeader, email: LEADER })
    const cookie = await s.signIn(LEADER)
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie,
      json: { title: 'Spring picnic', date: addDays(today(), 12), unit: 'pack', location: 'Oak Park', rsvp: true },
    })
    expect(created.status).toBe(201)
    const uid = created.body.uid as string
    const said = await familyAccount(s, { unit: 'pack', email: 'said.remind@example.org', parent_name: 'Sal Said' })
    const answer = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`, {
      cookie: said.cookie,
      json: { answer: 'yes', adults: 1, scouts: 1 },
    })
    expect(answer.status).toBe(200)
    const quiet = await addHousehold(s.db, { unit: 'pack', email: QUIET, phone: '555-010-3000', parent_name: 'Quinn Quiet' })
    const bare = await addHousehold(s.db, { unit: 'pack', email: null, parent_name: 'Bo Bare' })
    await addHousehold(s.db, { unit: 'troop', email: 'troop.remind@example.org', parent_name: 'Tess Troop' })

    const page = await suite.signedIn(LEADER, '/admin/calendar/')
    const card = page.locator(`[data-event="${uid}"]`)
    await card.getByRole('button', { name: 'See the replies' }).click()
    const part = card.getByRole('region', { name: 'Not answered yet' })
    await part.getByText('Not answered yet: 2 households').waitFor()
    expect(await part.locator(`[data-not-answered="${quiet}"]`).textContent()).toBe(`Quinn Quiet · 555-010-3000 · ${QUIET}`)
    expect(await part.locator(`[data-not-answered="${bare}"]`).textContent()).toBe('Bo Bare · no phone or email on the roster')
    expect(await part.getByText('Sal Said').count()).toBe(0)
    expect(await part.getByText('Tess Troop').count()).toBe(0)
    expect(await part.getByRole('link', { name: '555-010-3000' }).getAttribute('href')).toBe('tel:5550103000')

    await part.getByRole('button', { name: 'Remind them' }).click()
    const form = part.getByRole('form', { name: 'Remind them' })
    expect(await form.getByLabel('Subject').inputValue()).toBe('Please reply: Spring picnic')
    expect(await form.getByLabel('Message').inputValue()).toContain('Your household has not replied yet')
    expect(await seriousViolations(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false)
    await screenshot(page, 'replies-not-answered-phone')
    await form.getByRole('button', { name: 'Send to 2 households' }).click()
    await card.getByText('Reminder “Please reply: Spring picnic” sent to 1 address.').waitFor()

    const mail = await relay.waitFor(QUIET)
    expect(mail.subject).toBe('Please reply: Spring picnic')
    expect(mail.text).toContain('Your household has not replied yet')
    const reminded = relay.received.filter((m) => m.subject === 'Please reply: Spring picnic').flatMap((m) => m.to)
    expect(reminded).toEqual([QUIET])
  })

  it('with places, the headcount counts scouts coming and the waitlist apart', async () => {
    const s = suite.s
    const cookie = await s.signIn(LEADER)
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie,
      json: {
        title: 'Cabin night',
        date: addDays(today(), 14),
        unit: 'pack',
        rsvp: true,
        signup: { per_scout: true, capacity: 2, slots: [{ name: 'Driver', needed: 2 }] },
      },
    })
    const uid = created.body.uid as string
    for (const [name, scouts] of [
      ['Fay First', 2],
      ['Lee Late', 1],
    ] as const) {
      const f = await familyAccount(s, { unit: 'pack', email: null, parent_name: name, scouts })
      const res = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`, {
        cookie: f.cookie,
        json: { answer: 'yes', adults: 1, scouts, scout_ids: f.scouts, slots: [{ name: 'Driver', count: 1 }] },
      })
      expect(res.status).toBe(200)
    }
    const page = await suite.signedIn(LEADER, '/admin/calendar/')
    const headcount = page.locator(`[data-headcount="${uid}"]`)
    await headcount.waitFor()
    expect(await headcount.textContent()).toBe('Replies: 2 scouts coming (1 household, 1 adult) · 1 scout waiting · 0 maybe · 0 not coming')
    // The waitlisted family's driver slot is not filled yet.
    const card = page.locator(`[data-event="${uid}"]`)
    await card.getByRole('button', { name: 'See the replies' }).click()
    await card.getByText('2 of 2 places taken · 1 waiting').waitFor()
    expect(await card.getByText('Driver: 1 of 2').isVisible()).toBe(true)
  })

  it('the trip roster of a weekend shows its date range and flags a health form that runs out before its last day', async () => {
    const s = suite.s
    const cookie = await s.signIn(LEADER)
    const start = addDays(today(), 30)
    const end = addDays(start, 2)
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie,
      json: { title: 'Weekend campout', date: start, end, unit: 'pack', rsvp: true, signup: { per_scout: true } },
    })
    const uid = created.body.uid as string
    const f = await familyAccount(s, { unit: 'pack', email: null, parent_name: 'Hal Hike', emergency_phone: '555-010-9999' })
    const res = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`, {
      cookie: f.cookie,
      json: { answer: 'yes', adults: 1, scouts: 1, scout_ids: f.scouts },
    })
    expect(res.status).toBe(200)
    // A form that holds on the first day and runs out before the last.
    let formDate = addDays(start, -365)
    while (healthFormUntil(formDate) < start) formDate = addDays(formDate, 1)
    expect(healthFormUntil(formDate) < end).toBe(true)
    const form = await s.req('PUT', `/api/admin/roster/scouts/${f.scouts[0]}/checks/health_form`, {
      cookie,
      json: { done: true, form_date: formDate },
    })
    expect(form.status).toBe(200)
    const page = await suite.signedIn(LEADER, `/admin/calendar/roster/?uid=${encodeURIComponent(uid)}`)
    const whenText = page.locator('#trip-when')
    await whenText.filter({ hasText: ' to ' }).waitFor()
    expect(await whenText.textContent()).toBe(`${dayWords(start, { year: true })} to ${dayWords(end, { year: true })}`)
    await page.locator('#missing').filter({ hasText: '1 health form not current' }).waitFor()
    expect(await page.locator('#scouts tbody').textContent()).toContain(`NOT CURRENT`)
    expect(await page.locator('#scouts tbody').textContent()).toContain(`ends ${dayWords(healthFormUntil(formDate), { year: true })}`)
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false)
  })
})
