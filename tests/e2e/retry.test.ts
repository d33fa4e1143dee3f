// Safe retries from the admin pages in Chromium: a create whose answer is lost on the way back (the request reached
// the server) and is sent again by pressing the button again makes one thing, since both carry one Idempotency-Key;
// a success or a changed form sends a new key.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { ROLES, uniqueEmail } from '../helpers.ts'
import { browserSuite } from './browser.ts'

const suite = browserSuite()
let page: Page
/** The Idempotency-Key of each POST the page sent, in order. */
const keys: string[] = []
/** How many of the next POSTs reach the server but lose their answer. */
let toLose = 0

beforeAll(async () => {
  const admin = await suite.s.person({ ...ROLES.admin, email: uniqueEmail('retry.admin') })
  page = await suite.signedIn(admin.email, '/admin/nearby/', { viewport: { width: 1280, height: 900 } })
  await page.getByText('Add a nearby unit').click()
  await page.route('**/api/admin/nearby', async (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    keys.push(route.request().headers()['idempotency-key'])
    if (toLose === 0) return route.continue()
    toLose--
    await route.fetch() // the server gets it and answers; the page never sees that answer
    await route.abort('connectionreset')
  })
})

const rows = async (name: string) => (await suite.s.db.selectFrom('nearby_units').select('id').where('name', '=', name).execute()).length

async function add(name: string) {
  await page.locator('#add').getByLabel('Name').fill(name)
  await page.locator('#add').getByRole('button', { name: 'Add' }).click()
}

const lostShown = () => page.locator('#add-error').filter({ hasText: 'No answer came back' }).waitFor()

describe('admin pages retry a create safely', () => {
  it('makes one thing when the first answer was lost and the button is pressed again', async () => {
    const name = 'Crew Lost Answer'
    toLose = 1
    await add(name)
    await lostShown()
    expect(await rows(name)).toBe(1) // the first request was done; only its answer was lost

    const replayed = page.waitForResponse((res) => res.url().endsWith('/api/admin/nearby') && res.request().method() === 'POST')
    await page.locator('#add').getByRole('button', { name: 'Add' }).click()
    expect((await replayed).headers()['idempotent-replayed']).toBe('true')
    await page
      .getByRole('status')
      .filter({ hasText: `Added ${name}.` })
      .waitFor()
    expect(await rows(name)).toBe(1)
    expect(keys).toHaveLength(2)
    expect(keys[0]).toMatch(/^[\x21-\x7e]{1,255}$/)
    expect(keys[1]).toBe(keys[0])

    // After the success the same values are a new request, with a new key: a second unit of that name.
    await add(name)
    await page.locator('#nearby').getByRole('form', { name, exact: true }).nth(1).waitFor()
    expect(keys[2]).not.toBe(keys[0])
    expect(await rows(name)).toBe(2)
  })

  it('sends a new key when the form changed after a lost answer', async () => {
    toLose = 1
    await add('Crew Changed A')
    await lostShown()
    const before = keys.length
    await add('Crew Changed B')
    await page.getByRole('status').filter({ hasText: 'Added Crew Changed B.' }).waitFor()
    expect(keys[before]).not.toBe(keys[before - 1])
    expect([await rows('Crew Changed A'), await rows('Crew Changed B')]).toEqual([1, 1])
  })
})
