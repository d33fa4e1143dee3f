// Browser test of the family page at 375 px: a parent changes the phone and emergency contact, gives a scout a
// preferred name and photo consent, sees the leaders of their scouts' units, and a refusal shows beside its field in
// the API's words; nothing moves as the data arrives; axe finds nothing serious.
import { beforeAll, describe, expect, it } from 'bun:test'
import { familyAccount } from '../households.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
let parent: Awaited<ReturnType<typeof familyAccount>>
beforeAll(async () => {
  const cubmaster = await suite.s.person({
    email: 'cubmaster.page@example.org',
    units: [{ slug: 'pack', role: 'leader', title: 'Cubmaster' }],
  })
  await suite.s.db.updateTable('people').set({ name: 'Casey Cubmaster' }).where('id', '=', cubmaster.id).execute()
  parent = await familyAccount(
    suite.s,
    {
      unit: 'pack',
      email: 'hale.home@example.org',
      parent_name: 'Robin Hale',
      phone: '555-111-2222',
      scouts: [{ first_name: 'Jamie', last_name: 'Hale', den: 'Wolf' }],
    },
    'robin.hale.family@example.org',
  )
})

describe('the family page', () => {
  it('a parent changes their details, names their scout and gives photo consent, sees their leaders; refusals show by field', async () => {
    const page = await suite.signedIn(parent.email, '/family/', { viewport: PHONE })
    const card = page.locator('[data-household]', { hasText: 'Robin Hale' })
    await card.waitFor()
    const leaders = page.locator('[data-leaders]')
    expect(await leaders.textContent()).toContain('Casey Cubmaster, Cubmaster, Cub Scout Pack')
    expect(await leaders.getByRole('link', { name: 'cubmaster.page@example.org' }).getAttribute('href')).toBe(
      'mailto:cubmaster.page@example.org',
    )
    expect(await card.locator('[data-photos]').textContent()).toBe('Photos: please leave them out')
    // Your account and Sign out sit in one row, with nothing between them.
    const account = page.locator('.family-account')
    expect(await account.innerText()).not.toContain('·')
    const [link, button] = [account.getByRole('link', { name: 'Your account' }), account.getByRole('button', { name: 'Sign out' })]
    const [a, b] = [(await link.boundingBox())!, (await button.boundingBox())!]
    expect(Math.abs(a.y + a.height / 2 - (b.y + b.height / 2))).toBeLessThan(4)

    await card.getByText('Edit our details').click()
    const form = card.locator('form')
    // Two problems at once (a phone that is not one, an emergency name without a phone): each shows beside its field.
    await form.getByLabel('Phone', { exact: true }).fill('call me')
    await form.getByLabel('Emergency contact').fill('Pat Hale')
    await form.getByRole('button', { name: 'Save our details' }).click()
    await form.locator('.field-error', { hasText: /^Phone must be a phone number\.$/ }).waitFor()
    await form.locator('.field-error', { hasText: 'Emergency phone must be a phone number.' }).waitFor()
    expect(await form.getByLabel('Phone', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    expect(await form.getByLabel('Emergency phone').getAttribute('aria-invalid')).toBe('true')
    expect(await seriousViolations(page)).toEqual([])
    await form.getByLabel('Phone', { exact: true }).fill('555-333-4444')

    await form.getByLabel('Emergency phone').fill('555-987-6543')
    await form.getByLabel('Preferred name (what Jamie goes by)').fill('Jay')
    await form.getByRole('checkbox', { name: "Photos OK: Jamie may appear in the unit's photos" }).check()
    await form.getByRole('button', { name: 'Save our details' }).click()
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor()
    expect(await form.locator('.field-error').count()).toBe(0)
    const details = card.locator('[data-details]')
    expect(await details.textContent()).toContain('555-333-4444')
    expect(await details.textContent()).toContain('Pat Hale, 555-987-6543')
    expect(await details.getByRole('heading', { level: 3 }).textContent()).toBe('Jay Hale')
    expect(await details.locator('[data-photos]').textContent()).toBe('Photos: OK')
    // Each value keeps a line of its own on a phone: an email or a phone number is not broken mid-word.
    for (const value of await details.locator('dl.facts dd').all()) expect((await value.boundingBox())!.height).toBeLessThan(30)

    const stored = await suite.s.db.selectFrom('households').selectAll().where('id', '=', parent.household).executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ phone: '555-333-4444', emergency_name: 'Pat Hale', emergency_phone: '555-987-6543' })
    const scout = await suite.s.db.selectFrom('scouts').selectAll().where('id', '=', parent.scouts[0]).executeTakeFirstOrThrow()
    expect(scout).toMatchObject({ preferred_name: 'Jay', photo_consent: 1 })
    expect((await suite.s.lastLog('roster.household_update')).actor).toBe(parent.email)

    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'family-edit-phone')
    await page.close()
  })

  it('nothing on the first screen moves as the data arrives', async () => {
    const page = await suite.browser.newPage({ viewport: PHONE })
    const signedIn = await suite.signedIn(parent.email)
    await page.context().addCookies(await signedIn.context().cookies())
    await signedIn.close()
    await page.addInitScript(() => {
      const w = window as any
      w.shifts = []
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as any[])
          if (!e.hadRecentInput) w.shifts.push({ value: e.value, moved: e.sources.map((s: any) => s.node?.outerHTML?.slice(0, 80)) })
      }).observe({ type: 'layout-shift', buffered: true })
    })
    await page.goto(`${suite.s.url}/family/`)
    await page.locator('[data-household]').waitFor()
    await page.locator('#year', { hasText: /Program year \d{4}/ }).waitFor()
    // Everything counts, the header too: its script writes "Your family (<name>)" into the sign-in link, cut to fit.
    const shifts: { value: number; moved: string[] }[] = await page.evaluate(() => (window as any).shifts)
    expect(
      shifts.reduce((sum, s) => sum + s.value, 0),
      JSON.stringify(shifts),
    ).toBeLessThan(0.01)
    await page.close()
  })
})
