// Browser tests for people and the roster: accepting an invite, and a leader's tick reaching the family page.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Browser } from 'playwright-core'
import { PASSWORD, ROLES, startServerWithSite, type TestServer } from '../helpers.ts'
import { launch, signIn } from './browser.ts'

let s: TestServer
let browser: Browser
let leader: { id: number; email: string }

beforeAll(async () => {
  s = await startServerWithSite({})
  leader = await s.person({ ...ROLES.packLeader, email: 'denleader@example.org' })
  browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await s?.stop()
})

describe('invites in a browser', () => {
  it('a leader invites a family; the family accepts the invite, is signed in, and can sign in again', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } })
    await signIn(page, s.url, leader.email, PASSWORD)
    await page.goto(`${s.url}/admin/people/`)
    await page.getByLabel('Email').fill('new.family@example.org')
    await page.getByLabel('Role in Cub Scout Pack').selectOption('member')
    await page.getByRole('button', { name: 'Create invite link' }).click()
    await page.locator('#link-value').filter({ hasText: '/invite/' }).waitFor()
    const link = (await page.locator('#link-value').textContent())!.replace('http://127.0.0.1:1', s.url)
    await page.close()

    const family = await browser.newContext({ viewport: { width: 375, height: 800 } })
    const tab = await family.newPage()
    await tab.goto(link)
    await tab.getByLabel('Your name').fill('Pat Family')
    await tab.getByLabel('Password').fill('family password')
    await tab.getByRole('button', { name: 'Create my account' }).click()
    await tab.waitForURL(`${s.url}/admin/`)
    await tab.getByText('Signed in as new.family@example.org').waitFor()
    await tab.goto(link)
    await tab.getByLabel('Password').fill('family password')
    await tab.getByRole('button', { name: 'Create my account' }).click()
    await tab.getByRole('alert').filter({ hasText: 'already used' }).waitFor()
    await family.close()

    const again = await browser.newPage()
    await signIn(again, s.url, 'new.family@example.org', 'family password')
    await again.close()
  })
})

describe('checklist in a browser', () => {
  it('a leader ticks dues for a scout in one click, and the family sees it on their family page', async () => {
    const parent = await s.person({ ...ROLES.member, email: 'parent.of.leo@example.org' })
    const pack = (await s.db.selectFrom('units').select('id').where('slug', '=', 'pack').executeTakeFirstOrThrow()).id
    const leaderCookie = await s.signIn(leader.email)
    const household = (await s.req('POST', '/api/admin/roster/households', { cookie: leaderCookie, json: { parent_name: 'Morgan Lee' } }))
      .body
    await s.req('POST', `/api/admin/roster/households/${household.id}/scouts`, {
      cookie: leaderCookie,
      json: { first_name: 'Leo', unit_id: pack, den: 'Wolf' },
    })
    await s.req('PUT', `/api/admin/roster/households/${household.id}/people`, { cookie: leaderCookie, json: { person_ids: [parent.id] } })

    const familyPage = await browser.newPage({ viewport: { width: 375, height: 800 } })
    await signIn(familyPage, s.url, parent.email, PASSWORD)
    await familyPage.goto(`${s.url}/family/`)
    await familyPage.locator('[data-check="dues"]').filter({ hasText: 'Dues: not yet' }).waitFor()

    const page = await browser.newPage({ viewport: { width: 375, height: 800 } })
    await signIn(page, s.url, leader.email, PASSWORD)
    await page.goto(`${s.url}/admin/roster/`)
    await page.getByLabel('Dues for Leo').check()
    await page.getByRole('status').filter({ hasText: 'Dues for Leo: done' }).waitFor()

    await familyPage.reload()
    await familyPage.locator('[data-check="dues"]').filter({ hasText: 'Dues: paid' }).waitFor()
    expect(await familyPage.locator('[data-check="health_form"]').textContent()).toBe('Health form: not yet')
    await familyPage.close()
    await page.close()
  })
})
