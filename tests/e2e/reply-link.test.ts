// A parent with no account replies to the campout from the weekly digest's link, in Chromium at 375 px, with a real
// SMTP relay on loopback: the reply card shows the event's details (a multi-day range, place, description, cost and
// how to pay, the permission slip), offers only the household's scouts of the event's unit, warns before sending when
// the scouts chosen are more than the places left, and the
// reply sent with the button shows in the leader's list of replies. Opening the page wrote nothing.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { utcToZoned } from '../../server/calendar/zone.ts'
import { WEEKDAYS } from '../../server/formats.ts'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN, ROLES } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

let relay: TestRelay
beforeAll(async () => {
  relay = await startRelay()
})
afterAll(() => relay?.close())
const suite = browserSuite(() => ({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }))

const PARENT = 'no.account.parent@example.org'
const SLIP = 'My scouts may camp overnight at Camp Lakota.'
const [start, end] = [addDays(today(), 5), addDays(today(), 6)]

const setting = (key: string, value: unknown) => suite.s.req('PUT', `/api/admin/settings/${key}`, { token: ADMIN_TOKEN, json: { value } })

describe('replying from the mail without an account', () => {
  it("the digest's link opens the campout's card; the parent is warned, replies with the button, and the leader sees it", async () => {
    const s = suite.s
    const leader = await s.as({ ...ROLES.packLeader, email: 'akela.reply@example.org' })
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: {
        title: 'Fall campout',
        date: start,
        time: '17:00',
        end,
        end_time: '10:00',
        unit: 'pack',
        location: 'Camp Lakota',
        description: 'Tents are provided; bring a sleeping bag.',
        rsvp: true,
        signup: { per_scout: true, capacity: 1, cost_cents: 3500, permission_text: SLIP },
      },
    })
    expect(created.status).toBe(201)
    expect((await setting('payments.instructions', 'Pay **the treasurer** by check, or [online](https://pay.example.org).')).status).toBe(
      200,
    )
    const household = await addHousehold(s.db, {
      unit: 'pack',
      email: PARENT,
      parent_name: 'Robin Hale',
      scouts: [{ first_name: 'Sam' }, { first_name: 'Ana' }, { first_name: 'Theo' }],
    })
    // Theo is in the troop: the pack's campout does not offer him.
    const troop = await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()
    await s.db
      .updateTable('scouts')
      .set({ unit_id: troop.id })
      .where('household_id', '=', household)
      .where('first_name', '=', 'Theo')
      .execute()

    // The digest goes now (its day and hour are this hour's), to the household's address.
    const here = utcToZoned(Date.now(), 'America/Chicago')
    expect((await setting('mail.digest_day', WEEKDAYS[(new Date(`${here.date}T12:00:00Z`).getUTCDay() + 6) % 7])).status).toBe(200)
    expect((await setting('mail.digest_hour', Number(here.time.slice(0, 2)))).status).toBe(200)
    s.startDigest()
    const mail = await relay.waitFor(PARENT)
    expect(mail.text).toContain('Fall campout (pack) — reply: http://127.0.0.1:1/reply/')
    const path = new URL(linkIn(mail, 'http://127.0.0.1:1/reply/')).pathname

    await s.site!.settled()
    const page = await suite.browser.newPage({ viewport: PHONE, bypassCSP: true })
    await page.goto(`${s.url}${path}`)
    const card = page.locator('[data-event]', { hasText: 'Fall campout' })
    await card.waitFor()
    expect(await page.getByText('For the household of Robin Hale.').isVisible()).toBe(true)
    // One range for the two days, not a line per day.
    expect(await card.locator('[data-when]').textContent()).toMatch(
      /^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, 5:00 PM – [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, 10:00 AM$/,
    )
    expect(await card.locator('[data-where]').textContent()).toBe('Camp Lakota')
    expect(await card.locator('[data-description]').textContent()).toBe('Tents are provided; bring a sleeping bag.')
    expect(await card.locator('[data-facts]').textContent()).toContain('$35.00 per scout')
    expect(await card.locator('[data-pay] strong').textContent()).toBe('the treasurer')
    expect(await card.locator('[data-pay] a').getAttribute('href')).toBe('https://pay.example.org')
    expect(await card.getByText(SLIP).isVisible()).toBe(true)
    expect(await card.getByRole('checkbox', { name: 'Theo' }).count()).toBe(0)
    // Opening the link wrote nothing.
    expect(await s.db.selectFrom('rsvps').select('household_id').execute()).toEqual([])

    // Two scouts for one place: a plain warning before sending; one scout fits and the warning goes.
    await card.getByRole('radio', { name: 'Coming', exact: true }).check()
    await card.getByRole('checkbox', { name: 'Sam' }).check()
    const over = card.locator('[data-over]')
    expect(await over.isHidden()).toBe(true)
    await card.getByRole('checkbox', { name: 'Ana' }).check()
    await over.filter({ hasText: '2 scouts, 1 place left: both go on the waiting list' }).waitFor()
    expect(await over.textContent()).toContain('Or confirm 1 now and let the rest wait')
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'reply-link-warning-phone')
    await card.getByRole('checkbox', { name: 'Ana' }).uncheck()
    expect(await over.isHidden()).toBe(true)

    await card.getByLabel('Type your name to sign').fill('Robin Hale')
    await card.getByRole('button', { name: 'Send reply' }).click()
    await card.getByRole('status').filter({ hasText: 'Thank you: coming, 1 adult and 1 scout' }).waitFor()
    expect(await card.getByRole('status').textContent()).toContain('You owe $35.00')
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    await screenshot(page, 'reply-link-sent-phone')
    expect((await s.lastLog('calendar.rsvp')).actor).toBe(`household ${household} via reply link`)

    // The leader sees the reply in the event's replies.
    const admin = await suite.signedIn(leader.email, '/admin/calendar/')
    const event = admin.locator('li.card', { hasText: 'Fall campout' })
    await event.getByRole('button', { name: 'See the replies' }).click()
    const reply = event.locator(`[data-reply="${household}"]`)
    await reply.getByText('Robin Hale: coming, 1 adult and 1 scout').waitFor()
    expect(await reply.locator('dt', { hasText: 'Scouts' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('Sam')
    await page.close()
    await admin.close()
  }, 90_000)
})
