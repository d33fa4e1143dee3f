// The trip roster at camp without signal, in Chromium at 375 px: opened once online it is kept on the phone; with the
// network cut it opens again, attendance taken then waits on the phone (across a reload) and reaches the server once
// the network is back, exactly once; a tap the server refuses meanwhile is shown, not lost. A roster far from its
// event is not kept, nor one the leader may not see; signing in as someone else or signing out clears what was kept.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { addDays, today } from '../dates.ts'
import { PASSWORD, ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { browserSuite, seriousViolations, signIn } from './browser.ts'

const suite = browserSuite()
let leader: { email: string; cookie: string }
beforeAll(async () => (leader = await suite.s.as({ ...ROLES.packLeader, email: 'camp.leader@example.org' })))

const soon = (days: number) => addDays(today(), days)
const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const rosterPage = (uid: string) => `/admin/calendar/roster/?uid=${encodeURIComponent(uid)}`

/** A pack campout from `from` to `to` (days from today) with a family of two scouts signed up; its uid. */
async function campout(title: string, from: number, to: number, parent: string): Promise<string> {
  const created = await suite.s.req('POST', '/api/admin/calendar', {
    cookie: leader.cookie,
    json: {
      title,
      date: soon(from + 40),
      end: soon(to + 40),
      unit: 'pack',
      rsvp: true,
      signup: { per_scout: true },
      kind: 'campout',
      nights: 1,
    },
  })
  expect(created.status).toBe(201)
  const uid = created.body.uid as string
  const family = await familyAccount(suite.s, {
    unit: 'pack',
    email: null,
    parent_name: `${parent} Parent`,
    scouts: [
      { first_name: 'Alex', last_name: parent, den: 'Wolf' },
      { first_name: 'Bea', last_name: parent, den: 'Bear' },
    ],
  })
  const reply = await suite.s.req('PUT', `${eventPath(uid)}/rsvps`, {
    cookie: family.cookie,
    json: { answer: 'yes', adults: 1, scouts: 2, scout_ids: family.scouts },
  })
  expect(reply.status).toBe(200)
  // The clock cannot move: the event is moved to its days once families have answered (a past event takes no replies).
  const { uid: _, mine, replies, recurring, ...body } = (await suite.s.req('GET', eventPath(uid), { cookie: leader.cookie })).body
  const moved = await suite.s.req('PUT', eventPath(uid), { cookie: leader.cookie, json: { ...body, date: soon(from), end: soon(to) } })
  expect(moved.status).toBe(200)
  return uid
}

/** The paths the service worker keeps, and whether the queue of changes exists. */
const kept = (page: Page) =>
  page.evaluate(async () => {
    const cache = (await caches.keys()).includes('kept-v1') ? await caches.open('kept-v1') : null
    const paths = cache ? (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search) : []
    const queue = (await indexedDB.databases()).some((d) => d.name === 'offline-changes')
    return { paths, queue }
  })

const present = async (uid: string) =>
  Object.fromEntries(
    ((await suite.s.req('GET', `${eventPath(uid)}/attendance`, { cookie: leader.cookie })).body.scouts as any[]).map((s) => [
      s.name,
      s.present,
    ]),
  )
/** How many attendance changes the action log holds. */
const marks = async () =>
  (await suite.s.db.selectFrom('action_log').select('id').where('kind', '=', 'calendar.attendance').execute()).length

describe('the trip roster without signal', () => {
  it('opens offline once kept, keeps ticks made offline across a reload, and sends each once when the network is back', async () => {
    const uid = await campout('Lake campout', -1, 0, 'Avery')
    const page = await suite.signedIn(leader.email, rosterPage(uid))
    const note = page.locator('#offline-note')
    await note.getByText('Saved on this phone: it opens without a signal until').waitFor()
    // Of the admin API, only this event's roster and attendance are kept: never whoami or any other answer.
    const api = (await kept(page)).paths.filter((p) => p.startsWith('/api/')).sort()
    expect(api).toEqual([`${eventPath(uid)}/attendance`, `${eventPath(uid)}/roster`])

    await page.context().setOffline(true)
    await page.reload()
    await page.getByRole('heading', { name: 'Trip roster: Lake campout' }).waitFor()
    await note.getByText('No signal: this is the copy saved on this phone on').waitFor()
    expect(await page.locator('#households').innerText()).toContain('Avery Parent')
    const part = page.getByRole('region', { name: 'Who came' })
    const tap = (name: string) => part.getByRole('button', { name: new RegExp(`^✓?\\s*${name}`) })
    await part.getByText('Tap each one who came').waitFor()

    const before = await marks()
    await tap('Alex Avery').click()
    await tap('Alex Avery').filter({ hasText: 'Not saved yet · trying again' }).waitFor()
    // Reloaded without signal, the tap is still there, kept on the phone.
    await page.reload()
    await tap('Alex Avery').filter({ hasText: 'Not saved yet · trying again' }).waitFor()
    expect(await tap('Alex Avery').getAttribute('aria-pressed')).toBe('true')
    expect(await marks()).toBe(before)
    expect(await seriousViolations(page)).toEqual([])

    await page.context().setOffline(false)
    await tap('Alex Avery').filter({ hasText: 'Here · saved' }).waitFor()
    expect(await present(uid)).toMatchObject({ 'Alex Avery': true, 'Bea Avery': false })
    expect(await marks()).toBe(before + 1)

    // A tap the server refuses once the signal is back (the event was moved to next week meanwhile) is shown, and
    // goes back; it stays listed, after a reload too, until dismissed.
    await page.context().setOffline(true)
    await tap('Bea Avery').click()
    await tap('Bea Avery').filter({ hasText: 'Not saved yet' }).waitFor()
    const { uid: _, mine, replies, recurring, ...event } = (await suite.s.req('GET', eventPath(uid), { cookie: leader.cookie })).body
    const moved = await suite.s.req('PUT', eventPath(uid), { cookie: leader.cookie, json: { ...event, date: soon(3), end: soon(4) } })
    expect(moved.status).toBe(200)
    await page.context().setOffline(false)
    const conflict = part.locator('#attendance-conflicts p.error')
    await conflict.getByText('Not saved: Bea Avery: here.').waitFor()
    await tap('Bea Avery').filter({ hasText: 'Not saved' }).waitFor()
    expect(await tap('Bea Avery').getAttribute('aria-pressed')).toBe('false')
    await page.reload()
    await conflict.getByText('Not saved: Bea Avery: here.').waitFor()
    await conflict.getByRole('button', { name: 'Dismiss' }).click()
    await conflict.waitFor({ state: 'detached' })
    expect(await present(uid)).toMatchObject({ 'Alex Avery': true, 'Bea Avery': false })
    expect(await marks()).toBe(before + 1)
    await page.context().close()
  }, 120_000)

  it('keeps only rosters within a week of their event and that the leader may see; sign-in and sign-out clear them', async () => {
    const near = await campout('River hike', 2, 2, 'Brook')
    const far = await campout('Winter camp', 30, 31, 'Cole')
    const page = await suite.signedIn(leader.email, rosterPage(far))
    const note = page.locator('#offline-note')
    await note.getByText('once saved in the week before or after the event').waitFor()
    expect((await kept(page)).paths).not.toContain(`${eventPath(far)}/roster`)
    await page.goto(suite.s.url + rosterPage(near))
    await note.getByText('Saved on this phone').waitFor()
    expect((await kept(page)).paths).toContain(`${eventPath(near)}/roster`)

    // A troop leader signs in on the same phone: the pack leader's roster is gone, and theirs is refused.
    const other = await suite.s.as({ ...ROLES.troopLeader, email: 'camp.other@example.org' })
    await signIn(page, suite.s.url, other.email, PASSWORD)
    expect((await kept(page)).paths).not.toContain(`${eventPath(near)}/roster`)
    await page.goto(suite.s.url + rosterPage(near))
    await page.locator('#no-roster').waitFor()
    expect((await kept(page)).paths).not.toContain(`${eventPath(near)}/roster`)

    // Back as the pack leader, kept again; signing out clears the copies and the queue of changes.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL((url) => url.pathname === '/login/')
    await signIn(page, suite.s.url, leader.email, PASSWORD)
    await page.goto(suite.s.url + rosterPage(near))
    await note.getByText('Saved on this phone').waitFor()
    expect(await kept(page)).toMatchObject({ queue: true })
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL((url) => url.pathname === '/login/')
    expect(await kept(page)).toEqual({ paths: [], queue: false })
    await page.context().setOffline(true)
    await page.goto(suite.s.url + rosterPage(near))
    await page.getByRole('heading', { name: 'No connection' }).waitFor()
    await page.context().close()
  }, 120_000)
})
