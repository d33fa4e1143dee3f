// Browser test of a scout's log on the family page at 375 px: the morning after a two-night campout a leader marked
// who came, and the parent sees the nights in this program year's totals and the campout in the scout's events;
// axe finds nothing serious and nothing is wider than the phone. The leader's roster then finds who has not come and
// shows the nights in the household dialog, and the attendance page hands the leader who came as a CSV for Scoutbook.
import { beforeAll, describe, expect, it } from 'bun:test'
import { ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { ago, attend, pastEvent, yearStartsWith } from '../attendance.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
let parent: Awaited<ReturnType<typeof familyAccount>>
let leader: { email: string; cookie: string }
let campout: string
beforeAll(async () => {
  const s = suite.s
  await yearStartsWith(s, (await s.as(ROLES.admin)).cookie, ago(4))
  parent = await familyAccount(
    s,
    { unit: 'troop', email: null, parent_name: 'Nia Nights', scouts: [{ first_name: 'Noor', last_name: 'Nights' }] },
    'nia.nights@example.org',
  )
  await familyAccount(s, { unit: 'troop', email: null, parent_name: 'Abe Absent', scouts: [{ first_name: 'Ari', last_name: 'Absent' }] })
  leader = await s.as(ROLES.troopLeader)
  campout = await pastEvent(s, leader.cookie, { title: 'Ridge campout', date: ago(2), end: ago(1), kind: 'campout', nights: 2, miles: 4 })
  await attend(s, leader.cookie, campout, parent.scouts)
})

describe("a scout's log on the family page", () => {
  it('shows the nights of the campout the scout came to, at 375 px, with nothing serious for axe', async () => {
    const page = await suite.signedIn(parent.email, '/family/', { viewport: PHONE })
    const log = page.locator(`[data-log="${parent.scouts[0]}"]`)
    await log.waitFor()
    expect(await log.locator('[data-totals="program_year"]').textContent()).toBe(
      'This program year: 2 nights camping · 0 service hours · 4 miles · 0 meetings',
    )
    await log.getByText('Events Noor Nights came to (1)').click()
    const entry = log.locator('[data-entry]')
    await entry.waitFor()
    expect(await entry.textContent()).toContain('Ridge campout: 2 nights, 4 miles')
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'family-scout-log')
    await page.close()
  })

  it("the leader's roster keeps the scouts who have not come in the last weeks", async () => {
    const page = await suite.signedIn(leader.email, '/admin/roster/?unit=troop', { viewport: PHONE })
    const cards = page.locator('#households > li')
    await cards.filter({ hasText: 'Noor Nights' }).waitFor()
    // The unit in the address opened the filters already.
    await page.locator('#more-filters[open]').waitFor()
    await page.getByLabel('Not come in the last').selectOption('2')
    await page.waitForURL(/inactive_weeks=2/)
    await cards.filter({ hasText: 'Nia Nights' }).waitFor({ state: 'detached' })
    expect(await cards.allTextContents()).toEqual([expect.stringContaining('Ari Absent')])
    expect(await page.locator('#csv').getAttribute('href')).toContain('inactive_weeks=2')
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })

  it("the leader's household dialog shows the scout's nights this program year", async () => {
    const page = await suite.signedIn(leader.email, '/admin/roster/?unit=troop', { viewport: PHONE })
    await page.locator('#households > li', { hasText: 'Nia Nights' }).click()
    const dialog = page.getByRole('dialog', { name: "Edit Nia Nights's household" })
    await dialog.locator(`[data-log-line="${parent.scouts[0]}"]`, { hasText: '2 nights camping' }).waitFor()
    expect(await dialog.locator(`[data-log-line="${parent.scouts[0]}"]`).textContent()).toBe(
      'This program year: 2 nights camping · 0 service hours · 4 miles · 0 meetings',
    )
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })

  it('the leader downloads who came for Scoutbook from the attendance page', async () => {
    const page = await suite.signedIn(leader.email, `/admin/calendar/attendance/?uid=${encodeURIComponent(campout)}`, { viewport: PHONE })
    const link = page.getByRole('link', { name: 'Download for Scoutbook (CSV)' })
    await page.locator('#attendance:not([hidden])').waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    expect(download.suggestedFilename()).toBe(`attendance-${ago(2)}-ridge-campout.csv`)
    const bytes = new Uint8Array(await Bun.file((await download.path())!).arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = new TextDecoder().decode(bytes).trim().split('\r\n')
    expect(lines[0]).toStartWith('"BSA Member ID","First Name","Middle Name","Last Name","Log Type","Date","Nights"')
    expect(lines.filter((l) => l.includes('"Noor","","Nights"')).map((l) => l.split('","')[4])).toEqual(['Camping', 'Hiking'])
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})
