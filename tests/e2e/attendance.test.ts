// Browser test of taking attendance at 375 px: a leader adds a campout with its kind and two nights on the admin form,
// families sign up, and the morning after it the leader opens its trip roster and ticks who came — one tap a scout,
// a scout who came without signing up, an adult — each saved at once; a tap without signal is saved once the signal
// is back, done once. The public calendar shows the kind, never the nights.
import { beforeAll, describe, expect, it } from 'bun:test'
import { addDays, today } from '../dates.ts'
import { ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { browserSuite, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
let leader: { email: string; cookie: string }
beforeAll(async () => (leader = await suite.s.as({ ...ROLES.troopLeader, email: 'attendance.leader@example.org' })))

const soon = (days: number) => addDays(today(), days)
const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const widerThanScreen = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)

describe('taking attendance on a phone', () => {
  it('the morning after a two-night campout the leader ticks who came on its trip roster', async () => {
    const page = await suite.signedIn(leader.email, '/admin/calendar/')
    await page.locator('#event-ready:not([disabled])').waitFor()
    await page.getByLabel('Title').fill('Fall campout')
    await page.getByLabel('For').selectOption('troop')
    await page.getByLabel('Date', { exact: true }).fill(soon(10))
    await page.getByLabel('Last day (optional)').fill(soon(12))
    await page.getByLabel('Kind').selectOption('campout')
    await page.getByLabel('Camping nights').fill('2')
    await page.getByLabel('Miles, each').fill('3.5')
    await page.getByLabel('Ask families to reply').check()
    await page.getByLabel('Families choose which scouts come').check()
    expect(await widerThanScreen(page)).toBe(false)
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('status').filter({ hasText: 'Added “Fall campout”' }).waitFor()
    const card = page.locator('li.card', { hasText: 'Fall campout' })
    await card.getByText('Campout · 2 nights · 3.5 miles each').waitFor()
    const list = await suite.s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })
    const event = list.body.events.find((e: any) => e.title === 'Fall campout')
    expect(event).toMatchObject({ kind: 'campout', nights: 2, miles: 3.5, unit: 'troop' })
    expect(event.service_hours).toBeUndefined()
    const uid = event.uid as string

    // Families sign up: Ash for both scouts, Blake for Bo; Casey does not answer, yet Cy comes.
    const ash = await familyAccount(suite.s, {
      unit: 'troop',
      email: null,
      parent_name: 'Ash Avery',
      scouts: [
        { first_name: 'Ava', last_name: 'Avery', den: 'Fox Patrol' },
        { first_name: 'Abe', last_name: 'Avery', den: 'Fox Patrol' },
      ],
    })
    const blake = await familyAccount(suite.s, {
      unit: 'troop',
      email: null,
      parent_name: 'Blake Brook',
      scouts: [{ first_name: 'Bo', last_name: 'Brook', den: 'Owl Patrol' }],
    })
    const casey = await familyAccount(suite.s, { unit: 'troop', email: null, scouts: [{ first_name: 'Cy', last_name: 'Cole' }] })
    for (const [f, adults] of [
      [ash, 1],
      [blake, 0],
    ] as const) {
      const res = await suite.s.req('PUT', `${eventPath(uid)}/rsvps`, {
        cookie: f.cookie,
        json: { answer: 'yes', adults, scouts: f.scouts.length, scout_ids: f.scouts },
      })
      expect(res.status).toBe(200)
    }

    // The clock cannot jump ahead: the campout is moved to have begun two days ago, its last day today.
    const { uid: _, mine, replies, recurring, ...body } = (await suite.s.req('GET', eventPath(uid), { cookie: leader.cookie })).body
    const moved = await suite.s.req('PUT', eventPath(uid), { cookie: leader.cookie, json: { ...body, date: soon(-2), end: soon(0) } })
    expect(moved.status).toBe(200)

    await page.goto(`${suite.s.url}/admin/calendar/roster/?uid=${encodeURIComponent(uid)}`)
    const part = page.getByRole('region', { name: 'Who came' })
    await part.getByText('Tap each one who came').waitFor()
    const tap = (name: string) => part.getByRole('button', { name: new RegExp(`^✓?\\s*${name}`) })
    expect(await part.getByText('0 of 3 scouts here · 0 adults here').count()).toBe(1)

    for (const name of ['Ava Avery', 'Bo Brook']) {
      await tap(name).click()
      await tap(name).filter({ hasText: 'Here · saved' }).waitFor()
      expect(await tap(name).getAttribute('aria-pressed')).toBe('true')
    }
    // Cy came without signing up: chosen from the other scouts, he joins the list, marked here.
    await part.getByText('Add a scout who came without signing up').click()
    await screenshot(page, 'attendance-others-phone', { fullPage: false })
    await part.getByRole('list', { name: 'Other scouts' }).getByRole('button', { name: 'Cy Cole' }).click()
    await tap('Cy Cole').filter({ hasText: 'Here · saved' }).waitFor()
    await tap('Ash Avery').click()
    await tap('Ash Avery').filter({ hasText: 'Here · saved' }).waitFor()
    await part.getByLabel('Another adult who came').fill('Jordan Lee')
    await part.getByRole('button', { name: 'Add', exact: true }).click()
    await tap('Jordan Lee').filter({ hasText: 'Here · saved' }).waitFor()
    await part.getByText('3 of 4 scouts here · 2 adults here').waitFor()
    expect(await widerThanScreen(page)).toBe(false)
    const box = await tap('Bo Brook').boundingBox()
    expect(box!.height).toBeGreaterThanOrEqual(56)
    expect(box!.width).toBeGreaterThan(300)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'attendance-phone')

    // No signal: the tap says it is not saved yet and is sent again, with the same key, once the signal is back.
    const logs = async () =>
      (await suite.s.db.selectFrom('action_log').select('id').where('kind', '=', 'calendar.attendance').execute()).length
    const before = await logs()
    await page.context().setOffline(true)
    await tap('Abe Avery').click()
    await tap('Abe Avery').filter({ hasText: 'Not saved yet · trying again' }).waitFor()
    await page.context().setOffline(false)
    await tap('Abe Avery').filter({ hasText: 'Here · saved' }).waitFor()
    expect(await logs()).toBe(before + 1)
    // A mistaken tap is taken back.
    await tap('Abe Avery').click()
    await tap('Abe Avery').filter({ hasText: 'Not here · saved' }).waitFor()

    const kept = (await suite.s.req('GET', `${eventPath(uid)}/attendance`, { cookie: leader.cookie })).body
    const came = (xs: { name: string; present: boolean }[]) => xs.filter((x) => x.present).map((x) => x.name)
    expect(came(kept.scouts)).toEqual(['Ava Avery', 'Bo Brook', 'Cy Cole'])
    expect(came(kept.adults)).toEqual(['Ash Avery', 'Jordan Lee'])
    const rows = await suite.s.db.selectFrom('attendance').select(['scout_id', 'present']).where('event_uid', '=', uid).execute()
    expect(rows.find((r) => r.scout_id === casey.scouts[0])?.present).toBe(1)

    // Opened again, it shows what was saved.
    await page.reload()
    await part.getByText('3 of 4 scouts here · 2 adults here').waitFor()
    expect(await tap('Cy Cole').getAttribute('aria-pressed')).toBe('true')
    expect(await tap('Abe Avery').getAttribute('aria-pressed')).toBe('false')

    // The calendar links every event that has begun to its attendance page.
    await page.goto(`${suite.s.url}/admin/calendar/`)
    await page.locator('li.card', { hasText: 'Fall campout' }).getByRole('link', { name: 'Who came' }).click()
    await page.getByRole('heading', { name: 'Who came: Fall campout' }).waitFor()
    await page.getByText('Campout · 2 nights · 3.5 miles each').waitFor()
    expect(
      await page
        .getByRole('region', { name: 'Who came' })
        .getByRole('button', { name: /Ava Avery/ })
        .getAttribute('aria-pressed'),
    ).toBe('true')
    expect(await seriousViolations(page)).toEqual([])
    await page.close()

    // The public calendar says what kind of event it is, never the nights or miles.
    const visitor = await suite.visit('/calendar/')
    const publicCard = visitor.locator('li.card', { hasText: 'Fall campout' })
    expect(await publicCard.innerText()).toContain('Troop · Campout')
    expect(await publicCard.innerText()).not.toContain('night')
    const feed = await (await fetch(`${suite.s.url}/calendar.ics`)).text()
    expect(feed).toContain('X-SITE-KIND:campout')
    expect(feed).not.toContain('X-SITE-NIGHTS')
    expect(feed).not.toContain('X-SITE-MILES')
    await visitor.close()
  }, 120_000)

  it('a leader marks who came to last week’s meeting from the calendar’s last two weeks', async () => {
    const made = await suite.s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: {
        title: 'Troop meeting',
        unit: 'troop',
        date: soon(-14),
        time: '19:00',
        repeat: 'weekly',
        repeat_until: soon(14),
        kind: 'meeting',
      },
    })
    expect(made.status).toBe(201)
    const uid = made.body.uid as string
    const page = await suite.signedIn(leader.email, '/admin/calendar/')
    const recent = page.getByRole('region', { name: 'The last two weeks' })
    const lastWeek = recent.locator('li.card', { hasText: 'Troop meeting' }).first()
    await lastWeek.getByText('Meeting', { exact: true }).waitFor()
    await lastWeek.getByRole('link', { name: 'Who came' }).click()
    await page.getByRole('heading', { name: 'Who came: Troop meeting' }).waitFor()
    // No sign-up: every active scout of the troop is listed, none marked yet.
    const part = page.getByRole('region', { name: 'Who came' })
    const bo = part.getByRole('button', { name: /^✓?\s*Bo Brook/ })
    expect(await bo.getAttribute('aria-pressed')).toBe('false')
    await bo.click()
    await bo.filter({ hasText: 'Here · saved' }).waitFor()
    expect(await widerThanScreen(page)).toBe(false)
    expect(await seriousViolations(page)).toEqual([])
    const rows = await suite.s.db.selectFrom('attendance').select(['event_uid', 'present']).where('event_uid', 'like', `${uid}#%`).execute()
    expect(rows).toEqual([{ event_uid: `${uid}#${soon(-7)}`, present: 1 }])
    await page.close()
  }, 60_000)
})
