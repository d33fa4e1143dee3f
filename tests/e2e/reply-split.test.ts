// The family's choice on the reply card, in Chromium at 375 px: three scouts for one place left, the card warns that
// all wait together (the default) and offers to confirm one now with the rest waiting; the family picks the split, the
// scout ticked first is confirmed and the other two wait, and the card, the API and the leader's replies say so.
import { describe, expect, it } from 'bun:test'
import { replyToken } from '../../server/calendar/reply-token.ts'
import { addDays, today } from '../dates.ts'
import { ROLES } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()

describe('a split on the reply card', () => {
  it('offers "All wait together" or "Confirm 1 now, the rest wait", and sends the split in the order ticked', async () => {
    const s = suite.s
    const leader = await s.as(ROLES.packLeader)
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Zoo overnight', date: addDays(today(), 9), unit: 'pack', rsvp: true, signup: { per_scout: true, capacity: 2 } },
    })
    expect(created.status).toBe(201)
    const uid = created.body.uid as string
    const first = await familyAccount(s, { unit: 'pack', email: null, scouts: 1 })
    const taken = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`, {
      cookie: first.cookie,
      json: { answer: 'yes', adults: 1, scouts: 1, scout_ids: first.scouts },
    })
    expect(taken.body.status).toBe('confirmed')
    const household = await addHousehold(s.db, {
      unit: 'pack',
      email: 'three.scouts@example.org',
      parent_name: 'Jo Lane',
      scouts: [{ first_name: 'Sam' }, { first_name: 'Ana' }, { first_name: 'Leo' }],
    })
    const token = await replyToken(s.db, household, uid)

    await s.site!.settled()
    const page = await suite.browser.newPage({ viewport: PHONE, bypassCSP: true })
    await page.goto(`${s.url}/reply/${token}`)
    const card = page.locator('[data-event]', { hasText: 'Zoo overnight' })
    await card.waitFor()
    await card.getByRole('radio', { name: 'Coming', exact: true }).check()
    const choice = card.locator('[data-split]')
    for (const name of ['Ana', 'Sam']) await card.getByRole('checkbox', { name }).check()
    // Two scouts, one place: the warning, and the choice with all waiting together ticked.
    const over = card.locator('[data-over]')
    await over.filter({ hasText: '2 scouts, 1 place left: both go on the waiting list' }).waitFor()
    expect(await choice.isVisible()).toBe(true)
    expect(await choice.getByRole('radio', { name: 'All wait together' }).isChecked()).toBe(true)
    await card.getByRole('checkbox', { name: 'Leo' }).check()
    await over.filter({ hasText: '3 scouts, 1 place left: all 3 go on the waiting list' }).waitFor()
    const split = choice.getByRole('radio', { name: 'Confirm 1 now, the rest wait (Ana first)' })
    await split.check()
    await over.filter({ hasText: '3 scouts, 1 place left: 1 confirmed now, 2 on the waiting list' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    await screenshot(page, 'reply-split-choice-phone')
    // Fewer scouts than the places left: no choice to make.
    await card.getByRole('checkbox', { name: 'Leo' }).uncheck()
    await card.getByRole('checkbox', { name: 'Sam' }).uncheck()
    await choice.waitFor({ state: 'hidden' })
    for (const name of ['Sam', 'Leo']) await card.getByRole('checkbox', { name }).check()
    await split.check()

    await card.getByRole('button', { name: 'Send reply' }).click()
    await card.getByRole('status').filter({ hasText: '1 scout confirmed; 2 on the waiting list' }).waitFor()
    const [ana, sam, leo] = await Promise.all(
      ['Ana', 'Sam', 'Leo'].map(
        async (n) =>
          (
            await s.db
              .selectFrom('scouts')
              .select('id')
              .where('first_name', '=', n)
              .where('household_id', '=', household)
              .executeTakeFirstOrThrow()
          ).id,
      ),
    )
    const kept = await s.req('GET', `/api/reply/${token}`)
    expect(kept.body.reply).toMatchObject({ status: 'confirmed', scout_ids: [ana, sam, leo], waitlisted_scout_ids: [sam, leo] })
    expect(kept.body.event.places).toEqual({ capacity: 2, confirmed: 2, waitlisted: 2, left: 0 })
    await screenshot(page, 'reply-split-sent-phone')
    await page.close()

    // The leader's replies mark how many of the household wait, and which.
    const admin = await suite.signedIn(leader.email, '/admin/calendar/')
    const event = admin.locator('li.card', { hasText: 'Zoo overnight' })
    await event.getByRole('button', { name: 'See the replies' }).click()
    const row = event.locator(`[data-reply="${household}"]`)
    await row.locator('.badge', { hasText: '2 waitlisted' }).waitFor()
    expect(await row.locator('dt', { hasText: 'Waiting' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('Sam, Leo')
    await admin.close()
  }, 90_000)
})
