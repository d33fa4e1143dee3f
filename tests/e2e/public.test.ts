// Browser tests across the public site and the admin section: the join form reaching a leader, announcements coming and going.
import { beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES } from '../helpers.ts'
import { browserSuite } from './browser.ts'

const suite = browserSuite()
let leader: { email: string }
beforeAll(async () => (leader = await suite.s.person({ ...ROLES.packLeader, email: 'cubmaster@example.org' })))

describe('join form to a leader', () => {
  it('a visitor sends the join form, and a leader sees and claims the lead', async () => {
    const visitor = await suite.browser.newPage({ viewport: { width: 375, height: 800 } })
    await visitor.goto(`${suite.s.url}/`)
    await visitor.getByRole('link', { name: 'Join us' }).click()
    await visitor.getByLabel('Your name (parent or guardian)').fill('Robin Hale')
    await visitor.getByLabel('Email').fill('robin@example.org')
    await visitor.getByLabel('Interested in').selectOption('pack')
    await visitor.getByLabel('Grade in school').fill('2')
    await visitor.getByRole('button', { name: 'Send' }).click()
    await visitor.waitForURL(`${suite.s.url}/join/thanks/`)
    await visitor.getByRole('heading', { name: 'Thank you!' }).waitFor()
    await visitor.close()

    const page = await suite.signedIn(leader.email)
    await page.getByText('1 unclaimed lead (1 new this week)').waitFor()
    await page.goto(`${suite.s.url}/admin/leads/`)
    const card = page.locator('li.card', { hasText: 'Robin Hale' })
    await card.getByRole('button', { name: 'Claim' }).click()
    await page.getByRole('status').filter({ hasText: 'Claimed Robin Hale' }).waitFor()
    await page.locator('li.card', { hasText: 'Robin Hale' }).getByText('claimed by you').waitFor()
    const row = await suite.s.db.selectFrom('leads').selectAll().where('parent_name', '=', 'Robin Hale').executeTakeFirstOrThrow()
    expect(row.claimed_by).not.toBeNull()
    await page.close()
  })

  it('shows a missing contact plainly on the join form', async () => {
    const visitor = await suite.browser.newPage()
    await visitor.goto(`${suite.s.url}/join/`)
    await visitor.getByLabel('Your name (parent or guardian)').fill('No Contact')
    await visitor.getByRole('button', { name: 'Send' }).click()
    // The refusal shows beside the email field, in the page's words, and the field is marked and focused.
    const email = visitor.getByLabel('Email')
    await visitor.locator('.field-error').filter({ hasText: 'Email is needed, or a phone number, so we can reach you.' }).waitFor()
    expect(await email.getAttribute('aria-invalid')).toBe('true')
    expect(await email.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await visitor.getByRole('alert').isVisible()).toBe(false)
    await visitor.close()
  })
})

describe('announcements on the public site', () => {
  it('one for both units appears on every public page after publishing, and disappears when taken down', async () => {
    const page = await suite.signedIn(leader.email, '/admin/announcements/')
    // A pack leader's form starts on the pack (set once the page has read who is signed in): this one is for both units.
    await page.waitForFunction(() => (document.querySelector('#create select[name=unit]') as HTMLSelectElement | null)?.value === 'pack')
    expect(await page.getByLabel('For').inputValue()).toBe('pack')
    await page.getByLabel('For').selectOption('both')
    await page.getByLabel('Message').fill('Pinewood derby moved to Saturday')
    await page.getByText('32 of 280 characters').waitFor()
    await page.getByLabel('Show until').fill('2099-12-31T18:00')
    await page.getByRole('button', { name: 'Publish announcement' }).click()
    await page.getByRole('status').filter({ hasText: 'Published (showing now)' }).waitFor()

    const visitor = await suite.visit('/')
    const banner = () => visitor.getByRole('complementary', { name: 'Announcements' }).getByText('Pinewood derby moved to Saturday')
    for (const path of ['/', '/units/pack/', '/units/troop/', '/join/', '/nearby/']) {
      await visitor.goto(`${suite.s.url}${path}`)
      expect(await banner().count(), path).toBe(1)
    }

    await page.locator('li.card', { hasText: 'Pinewood derby' }).getByRole('button', { name: 'Take down' }).click()
    await page.getByRole('status').filter({ hasText: 'Taken down' }).waitFor()
    await suite.s.site!.settled()
    await visitor.goto(`${suite.s.url}/`)
    expect(await banner().count()).toBe(0)
    await visitor.close()
    await page.close()
  })

  it("one for the pack shows on the pack's pages and the home page only", async () => {
    const page = await suite.signedIn(leader.email, '/admin/announcements/')
    await page.getByLabel('Message').fill('Den meeting moved to the gym')
    await page.getByLabel('Show until').fill('2099-12-31T18:00')
    await page.getByRole('button', { name: 'Publish announcement' }).click()
    await page.getByRole('status').filter({ hasText: 'Published' }).waitFor()
    await page.locator('li.card', { hasText: 'Den meeting moved' }).getByText('for pack', { exact: false }).waitFor()
    const visitor = await suite.visit('/')
    const shown = async (path: string) => {
      await visitor.goto(`${suite.s.url}${path}`)
      return visitor.getByRole('complementary', { name: 'Announcements' }).getByText('Den meeting moved to the gym').count()
    }
    for (const path of ['/', '/units/pack/', '/calendar/pack/']) expect(await shown(path), path).toBe(1)
    for (const path of ['/units/troop/', '/calendar/troop/', '/join/', '/nearby/']) expect(await shown(path), path).toBe(0)
    await page.locator('li.card', { hasText: 'Den meeting moved' }).getByRole('button', { name: 'Take down' }).click()
    await page.getByRole('status').filter({ hasText: 'Taken down' }).waitFor()
    await visitor.close()
    await page.close()
  })

  it('counts characters against the cap as the leader types, and says when there are too many', async () => {
    const page = await suite.signedIn(leader.email, '/admin/announcements/')
    await page.getByLabel('Message').fill('x'.repeat(285))
    await page.getByText('285 of 280 characters: 5 too many').waitFor()
    await page.getByLabel('Show until').fill('2099-12-31T18:00')
    await page.getByRole('button', { name: 'Publish announcement' }).click()
    await page.locator('.field-error').filter({ hasText: 'Message must be at most 280 characters (it has 285).' }).waitFor()
    await page.close()
  })

  it('shows the live-cap refusal with the live announcements in the admin form', async () => {
    const page = await suite.signedIn(leader.email)
    for (let i = 0; i < 3; i++)
      await suite.s.req('POST', '/api/admin/announcements', {
        token: ADMIN_TOKEN,
        json: { message: `Cap filler ${i}`, ends_at: '2099-01-01T00:00:00Z' },
      })
    await page.goto(`${suite.s.url}/admin/announcements/`)
    await page.getByLabel('Message').fill('One more')
    // The count is the page's script at work: once it shows, the form sends through the script, not natively.
    await page.getByText('8 of 280 characters').waitFor()
    await page.getByLabel('Show until').fill('2099-12-31T18:00')
    await page.getByRole('button', { name: 'Publish announcement' }).click()
    await page.getByRole('alert').filter({ hasText: 'live cap of 3' }).waitFor()
    expect(await page.getByRole('alert').textContent()).toContain('Cap filler 0')
    await page.close()
  })
})
