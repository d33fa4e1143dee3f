// A real pack's journey end to end in Chromium at 375 × 812, with a real SMTP relay on loopback (issue 45): a leader
// imports the 60-household BSA "Member Roster" export and then a generic spreadsheet (preview, then apply); welcomes
// the roster, which mails only households without an account; a parent with no account replies to the campout from
// the digest's link; another signs in with the welcome's link and sees only their own household; the leader sees who
// has not answered and reminds them, and the reminder reaches exactly those households (both parents). Every mail's link is read
// from the mail the relay caught; only setting the scene (the campout, the digest's hour) uses the API.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { utcToZoned } from '../../server/calendar/zone.ts'
import { WEEKDAYS } from '../../server/formats.ts'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN } from '../helpers.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'
import { browserSuite, screenshot } from './browser.ts'

let relay: TestRelay
beforeAll(async () => (relay = await startRelay()))
afterAll(() => relay?.close())
const suite = browserSuite(() => ({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 1234 <pack1234@example.org>' }), { localhost: true })

const PHONE = { width: 375, height: 812 }
const FIXTURES = path.join(import.meta.dir, '..', 'fixtures', 'roster')
const LEADER = 'cubmaster.journey@example.org'
// From the fixtures (tests/fixtures/roster/make.ts): households 0, 2 and 4 stay in the pack after the generic file.
const HAS_ACCOUNT = 'alex.abbott@example.org'
const REPLIER = { email: 'morgan.coldbrook@example.org', parent: 'Morgan Coldbrook', scout: 'Casey' }
const SIGNER = { email: 'sam.ellery@example.org', scout: 'Emery' }

const setting = (key: string, value: unknown) => suite.s.req('PUT', `/api/admin/settings/${key}`, { token: ADMIN_TOKEN, json: { value } })
const fitsPhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

async function importFile(page: Page, file: string, counts: string, applied: string) {
  await page.getByLabel('CSV file').setInputFiles(path.join(FIXTURES, file))
  await page.getByRole('button', { name: 'Preview' }).click()
  await page.getByRole('heading', { name: 'What this file would do' }).waitFor()
  await page.locator('#preview-counts').filter({ hasText: counts }).waitFor()
  expect(await fitsPhone(page)).toBe(true)
  await page.getByRole('button', { name: 'Import these' }).click()
  await page.getByText(applied).waitFor()
}

describe('a pack moves in, at 375 px', () => {
  it('import, welcome, a reply from the digest, a sign-in by link, and a reminder to those who have not answered', async () => {
    const s = suite.s
    await s.person({
      units: [
        { slug: 'pack', role: 'leader', title: 'Cubmaster' },
        { slug: 'troop', role: 'leader', title: 'Scoutmaster' },
      ],
      email: LEADER,
    })
    // The relay takes the welcome, digest and reminders at once rather than 60 a minute (the default).
    expect((await setting('mail.per_minute', 1000)).status).toBe(200)

    // 1. The leader imports the BSA export (all 60 households into the pack), then a spreadsheet of both units.
    const leader = await suite.signedIn(LEADER, '/admin/roster/', { viewport: PHONE })
    // The whole week in one test: on a busy machine (the test line's workers, a CI core kept busy) a 60-household
    // preview or a page of mail can take longer than Playwright's 30 s default, so each step may wait 90 s.
    leader.setDefaultTimeout(90_000)
    await leader.getByRole('link', { name: 'Import from a file' }).click()
    await leader.waitForURL('**/admin/roster/import/')
    await importFile(
      leader,
      'bsa-member-roster.csv',
      'Households: 60 new households, 0 to update',
      'Imported: 60 households and 75 scouts added, 0 households and 0 scouts updated.',
    )
    await leader.goto(`${s.url}/admin/roster/import/`)
    await importFile(
      leader,
      'generic-roster.csv',
      'Scouts: 0 new scouts, 30 to update, 45 already as the file says',
      'Imported: 0 households and 0 scouts added, 0 households and 30 scouts updated.',
    )
    await leader.getByRole('link', { name: 'Open the roster' }).click()
    await leader.locator('#counts').filter({ hasText: '60 households · 75 scouts' }).waitFor()
    await screenshot(leader, 'pack-journey-roster-375')

    // One family already has an account (a parent who helped before): the welcome passes them by.
    await s.person({ units: [{ slug: 'pack', role: 'member' }], email: HAS_ACCOUNT })
    const welcomeAddresses = await s.db
      .selectFrom('households')
      .select(['email', 'second_email'])
      .execute()
      .then((rows) => rows.flatMap((r) => [r.email, r.second_email]).filter((e): e is string => !!e && e !== HAS_ACCOUNT))
    expect(welcomeAddresses.length).toBe(79)

    // 2. The leader welcomes the roster; every address without an account gets one welcome, the account none.
    await leader.getByText('Welcome families').click()
    await leader.getByRole('button', { name: 'Mail the welcome' }).click()
    await leader
      .getByRole('status')
      .filter({ hasText: `Queued ${welcomeAddresses.length} welcome mails` })
      .waitFor()
    const welcomes = () => relay.received.filter((m) => m.subject === 'Welcome to Pack & Troop')
    while (welcomes().length < welcomeAddresses.length) await relay.waitForCount(relay.received.length + 1)
    expect(
      welcomes()
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual([...welcomeAddresses].sort())

    // 3. The campout (set up through the API) and the weekly digest, sent now, to the families.
    const cookie = await s.signIn(LEADER)
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie,
      json: {
        title: 'Fall campout',
        date: addDays(today(), 9),
        end: addDays(today(), 10),
        unit: 'pack',
        location: 'Camp Lakota',
        rsvp: true,
      },
    })
    expect(created.status).toBe(201)
    const uid = created.body.uid as string
    const here = utcToZoned(Date.now(), 'America/Chicago')
    expect((await setting('mail.digest_day', WEEKDAYS[(new Date(`${here.date}T12:00:00Z`).getUTCDay() + 6) % 7])).status).toBe(200)
    expect((await setting('mail.digest_hour', Number(here.time.slice(0, 2)))).status).toBe(200)
    const seen = relay.received.length
    s.startDigest()
    const digest = async () => {
      for (;;) {
        const found = relay.received.slice(seen).find((m) => m.to.includes(REPLIER.email))
        if (found) return found
        await relay.waitForCount(relay.received.length + 1)
      }
    }
    const mail = await digest()
    expect(mail.text).toContain('Fall campout (pack) — reply:')

    // 4. A parent with no account replies from the digest's link, on their phone (the page reads the event by its
    // token, so it need not wait for the public site's rebuild).
    const parent = await suite.browser.newPage({ viewport: PHONE })
    parent.setDefaultTimeout(90_000)
    await parent.goto(`${s.url}${new URL(linkIn(mail, `${s.url}/reply/`)).pathname}`)
    const card = parent.locator('[data-event]', { hasText: 'Fall campout' })
    await card.waitFor()
    expect(await parent.getByText(`For the household of ${REPLIER.parent}.`).isVisible()).toBe(true)
    await card.getByRole('radio', { name: 'Coming', exact: true }).check()
    await card.getByRole('button', { name: 'Send reply' }).click()
    await card.getByRole('status').filter({ hasText: 'Thank you: coming' }).waitFor()
    expect(await fitsPhone(parent)).toBe(true)
    await parent.close()

    // 5. Another parent signs in with the welcome's link and lands on their own household, and only that.
    const welcome = welcomes().find((m) => m.to.includes(SIGNER.email))!
    const family = await suite.browser.newContext({ viewport: PHONE })
    const signer = await family.newPage()
    signer.setDefaultTimeout(90_000)
    await signer.goto(linkIn(welcome, `${s.url}/login/link/`))
    await signer.getByRole('button', { name: 'Sign in', exact: true }).click()
    await signer.waitForURL((u) => u.pathname === '/family/')
    await signer.getByText(SIGNER.scout).first().waitFor()
    const shown = await signer.locator('main').textContent()
    for (const other of ['Casey', 'Avery', 'Coldbrook', 'Abbott']) expect(shown).not.toContain(other)
    expect(await fitsPhone(signer)).toBe(true)
    await screenshot(signer, 'pack-journey-family-375')
    await family.close()

    // 6. The leader sees the reply, and who has not answered, and reminds them: the mail reaches exactly those.
    await leader.goto(`${s.url}/admin/calendar/`)
    const event = leader.locator(`[data-event="${uid}"]`)
    await event.getByRole('button', { name: 'See the replies' }).click()
    await event.getByText(`${REPLIER.parent}: coming`).waitFor()
    const quiet = event.getByRole('region', { name: 'Not answered yet' })
    await quiet.getByText('Not answered yet: 29 households').waitFor()
    expect(await quiet.getByText(REPLIER.parent).count()).toBe(0)
    expect(await fitsPhone(leader)).toBe(true)
    await screenshot(leader, 'pack-journey-not-answered-375')
    const expected = await s.db
      .selectFrom('households')
      .innerJoin('scouts', 'scouts.household_id', 'households.id')
      .innerJoin('units', 'units.id', 'scouts.unit_id')
      .where('units.slug', '=', 'pack')
      .where('households.email', '!=', REPLIER.email)
      .select(['households.email', 'households.second_email'])
      .distinct()
      .execute()
      .then((rows) => rows.flatMap((r) => [r.email!, ...(r.second_email ? [r.second_email] : [])]).sort())
    // Both parents of each of the 29 households (10 have a second parent's address), the one who replied neither.
    expect(expected.length).toBe(39)
    const reminders = () => relay.received.filter((m) => m.subject === 'Please reply: Fall campout')
    await quiet.getByRole('button', { name: 'Remind them' }).click()
    const form = quiet.getByRole('form', { name: 'Remind them' })
    await form.getByRole('button', { name: 'Send to 29 households' }).click()
    const done = event.getByText(/^Reminder “Please reply: Fall campout” sent to/)
    await done.waitFor()
    expect(await done.textContent()).toBe(`Reminder “Please reply: Fall campout” sent to ${expected.length} addresses.`)
    while (reminders().length < expected.length) await relay.waitForCount(relay.received.length + 1)
    expect(
      reminders()
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(expected)
    await leader.close()
  }, 300_000)
})
