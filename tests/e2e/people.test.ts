// Browser tests for people and the roster: accepting an invite, and a leader's tick reaching the family page.
import { beforeAll, describe, expect, it } from 'bun:test'
import { newSetupLink } from '../../server/people/setup.ts'
import { ROLES } from '../helpers.ts'
import { browserSuite, PHONE } from './browser.ts'

const suite = browserSuite()
let leader: { id: number; email: string }
beforeAll(async () => (leader = await suite.s.person({ ...ROLES.packLeader, email: 'denleader@example.org' })))

describe('invites in a browser', () => {
  it('a leader invites a family; the family accepts the invite, is signed in, and can sign in again', async () => {
    const page = await suite.signedIn(leader.email, '/admin/people/')
    await page.getByLabel('Email').fill('new.family@example.org')
    await page.getByLabel('Role in Cub Scout Pack').selectOption('member')
    await page.getByRole('button', { name: 'Create invite link' }).click()
    await page.locator('#link-value').filter({ hasText: '/invite/' }).waitFor()
    const link = (await page.locator('#link-value').textContent())!.replace('http://127.0.0.1:1', suite.s.url)
    await page.close()

    const family = await suite.browser.newContext({ viewport: PHONE })
    const tab = await family.newPage()
    await tab.goto(link)
    await tab.getByLabel('Your name').fill('Pat Family')
    await tab.getByLabel('Password').fill('family password')
    await tab.getByRole('button', { name: 'Create my account' }).click()
    // A family account lands on its family page, and the header says who is signed in.
    await tab.waitForURL(`${suite.s.url}/family/`)
    await tab.getByRole('link', { name: 'Your family (Pat Family)' }).waitFor()
    // Used once, the link says so at once, and offers no form.
    await tab.goto(link)
    await tab.getByText(/already used/).waitFor()
    expect(await tab.getByLabel('Password').isVisible()).toBe(false)
    await family.close()

    await (await suite.signedIn('new.family@example.org', undefined, { password: 'family password' })).close()
  })
})

describe('checklist in a browser', () => {
  it('a leader ticks dues for a scout in one click, and the family sees it on their family page', async () => {
    const parent = await suite.s.person({ ...ROLES.member, email: 'parent.of.leo@example.org' })
    const pack = (await suite.s.db.selectFrom('units').select('id').where('slug', '=', 'pack').executeTakeFirstOrThrow()).id
    const leaderCookie = await suite.s.signIn(leader.email)
    const household = (
      await suite.s.req('POST', '/api/admin/roster/households', { cookie: leaderCookie, json: { parent_name: 'Morgan Lee' } })
    ).body
    await suite.s.req('POST', `/api/admin/roster/households/${household.id}/scouts`, {
      cookie: leaderCookie,
      json: { first_name: 'Leo', unit_id: pack, den: 'Wolf' },
    })
    await suite.s.req('PUT', `/api/admin/roster/households/${household.id}/people`, {
      cookie: leaderCookie,
      json: { person_ids: [parent.id] },
    })

    const familyPage = await suite.signedIn(parent.email, '/family/')
    await familyPage.locator('[data-check="dues"]').filter({ hasText: 'Dues: not yet' }).waitFor()

    const page = await suite.signedIn(leader.email, '/admin/roster/')
    await page.locator('li.household', { hasText: 'Morgan Lee' }).getByRole('button', { name: 'Morgan Lee' }).click()
    await page.getByLabel('Dues paid for Leo').check()
    await page.getByRole('status').filter({ hasText: 'Dues for Leo: done' }).waitFor()

    await familyPage.reload()
    await familyPage.locator('[data-check="dues"]').filter({ hasText: 'Dues: paid' }).waitFor()
    expect(await familyPage.locator('[data-check="health_form"]').textContent()).toBe('Health form: not yet')
    await familyPage.close()
    await page.close()
  })
})

describe('one-time links in a browser', () => {
  const opened = (url: string) => url.replace('http://127.0.0.1:1', suite.s.url)

  it('a reset link lets the person choose a new password, then sign in with it', async () => {
    const person = await suite.s.person({ ...ROLES.member, email: 'forgot.password@example.org' })
    const admin = await suite.s.person({ ...ROLES.admin, email: 'people.admin@example.org' })
    const res = await suite.s.req('POST', `/api/admin/people/${person.id}/reset`, { cookie: await suite.s.signIn(admin.email) })
    expect(res.status).toBe(201)
    const { url } = res.body
    const page = await suite.browser.newPage({ viewport: PHONE })
    await page.goto(opened(url))
    await page.getByLabel('New password').fill('a brand new password')
    await page.getByText('This link sets the password of forgot.password@example.org.').waitFor()
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.waitForURL((url) => url.pathname === '/login/')
    expect(await page.getByLabel('Email').inputValue()).toBe(person.email)
    await page.close()
    await (await suite.signedIn(person.email, undefined, { password: 'a brand new password' })).close()
  })

  it('the setup link creates the first owner, signed in at once; used again it says so', async () => {
    const url = opened((await newSetupLink(suite.s.db, 'http://127.0.0.1:1'))!)
    const page = await suite.browser.newPage({ viewport: PHONE })
    await page.goto(url)
    await page.getByLabel('Email').fill('first.owner@example.org')
    await page.getByLabel('Password').fill('owner password')
    await page.getByRole('button', { name: 'Create owner' }).click()
    await page.waitForURL(`${suite.s.url}/admin/`)
    await page.getByText('Signed in as first.owner@example.org (owner)').waitFor()
    await page.goto(url)
    await page.getByLabel('Email').fill('second.owner@example.org')
    await page.getByLabel('Password').fill('owner password')
    await page.getByRole('button', { name: 'Create owner' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: /used|owner exists/ })
      .waitFor()
    await page.close()
  })
})
