// Messages in a browser, with a real SMTP relay on loopback: a leader writes to one den at phone width (live count,
// confirm, the mail reaching exactly that den's addresses, the sent list with each delivery); the footer's unsubscribe
// link stops the mail and the family page turns it back on; without mail set up the page says how to set it up.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { addDays, today } from '../dates.ts'
import { ROLES } from '../helpers.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'
import { type Radicale, startRadicale } from '../radicale.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

let relay: TestRelay
let dav: Radicale
beforeAll(async () => {
  relay = await startRelay()
  dav = await startRadicale()
})
afterAll(() => dav?.stop())
const suite = browserSuite(() => ({ ...dav.env, SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }), { localhost: true })
const unmailed = browserSuite()

const LEADER = 'akela.messages@example.org'
const PARENT = 'ada.parent@example.org'
const WOLF_ADDRESSES = ['ada.home@example.org', PARENT, 'ben.home@example.org']
const SUBJECT = 'Den meeting moved to the park'
/** The uid of the campout asking for replies (made in the second test, written to in the third). */
let campout = ''

/** The roster of these tests, through the API as the pack leader: three Wolf households (one without an address), a Bear and a troop patrol. */
async function seedRoster() {
  const s = suite.s
  await s.person({ ...ROLES.packLeader, email: LEADER })
  await s.person({ ...ROLES.troopLeader, email: 'troop.leader.messages@example.org' })
  const parent = await s.person({ ...ROLES.member, email: PARENT })
  const unit = async (slug: 'pack' | 'troop') =>
    (await s.db.selectFrom('units').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id
  const [pack, troop] = [await unit('pack'), await unit('troop')]
  const cookies = { pack: await s.signIn(LEADER), troop: await s.signIn('troop.leader.messages@example.org') }
  const family = async (
    as: keyof typeof cookies,
    parent_name: string,
    email: string | null,
    scout: { first_name: string; unit_id: number; den: string },
  ) => {
    const cookie = cookies[as]
    const made = await s.req('POST', '/api/admin/roster/households', { cookie, json: { parent_name, ...(email ? { email } : {}) } })
    expect(made.status).toBe(201)
    expect((await s.req('POST', `/api/admin/roster/households/${made.body.id}/scouts`, { cookie, json: scout })).status).toBe(201)
    return made.body.id as number
  }
  const ada = await family('pack', 'Ada Lovelace', 'ada.home@example.org', { first_name: 'Byron', unit_id: pack, den: 'Wolf' })
  const linked = await s.req('PUT', `/api/admin/roster/households/${ada}/people`, {
    cookie: cookies.pack,
    json: { person_ids: [parent.id] },
  })
  expect(linked.status).toBe(200)
  await family('pack', 'Ben Okafor', 'ben.home@example.org', { first_name: 'Chidi', unit_id: pack, den: 'wolf' })
  await family('pack', 'Cy Young', null, { first_name: 'Dot', unit_id: pack, den: 'Wolf' })
  await family('pack', 'Dee Bear', 'dee.home@example.org', { first_name: 'Eli', unit_id: pack, den: 'Bear' })
  await family('troop', 'Eve Eagle', 'eve.home@example.org', { first_name: 'Finn', unit_id: troop, den: 'Eagle' })
}

describe('messages in a browser', () => {
  it('a pack leader writes to the Wolf den at phone width: the live count, the confirm, mail to exactly its addresses, and the sent list with each delivery', async () => {
    await seedRoster()
    const page = await suite.signedIn(LEADER, '/admin/messages/')
    // The den boxes come from the roster: once they show, the picker is ready.
    const wolf = page.getByLabel('Wolf den')
    await wolf.waitFor()
    expect(await page.getByLabel('Bear den').isVisible()).toBe(true)
    expect(await page.getByLabel('Eagle patrol').count()).toBe(0) // the troop is not this leader's
    await page.getByLabel('Subject').fill(SUBJECT)
    await page.getByLabel('Message', { exact: true }).fill('We meet at **the park** on Tuesday.\n\n- bring water\n- bring a hat')
    await wolf.check()
    const count = page.locator('#count')
    await count.filter({ hasText: '3 addresses · 1 household has no address' }).waitFor()
    expect(await count.getAttribute('aria-live')).toBe('polite')
    expect(await seriousViolations(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await screenshot(page, 'messages-compose-phone')

    await page.getByRole('button', { name: 'Send…' }).click()
    const confirm = page.getByRole('dialog', { name: 'Send this message?' })
    await confirm.getByText(`“${SUBJECT}” goes to 3 addresses · 1 household has no address: the Wolf den.`).waitFor()
    await confirm.getByRole('button', { name: 'Send to 3 addresses' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: `Sent “${SUBJECT}” to 3 addresses.` })
      .waitFor()

    // Exactly the Wolf den's addresses were queued, and each arrived at the relay, one mail per address.
    const message = await suite.s.db.selectFrom('messages').selectAll().where('subject', '=', SUBJECT).executeTakeFirstOrThrow()
    const queued = await suite.s.db.selectFrom('mail_outbox').select('to_address').where('message_id', '=', message.id).execute()
    expect(queued.map((q) => q.to_address).sort()).toEqual([...WOLF_ADDRESSES].sort())
    for (const address of WOLF_ADDRESSES) await relay.waitFor(address)
    const received = relay.received.filter((m) => m.subject === SUBJECT)
    expect(received.map((m) => m.to).sort()).toEqual(WOLF_ADDRESSES.map((a) => [a]).sort())
    const ada = received.find((m) => m.to[0] === 'ada.home@example.org')!
    expect(ada.html).toContain('<strong>the park</strong>')
    expect(ada.text).toContain(`Sent by ${LEADER} to the Wolf den.`)
    expect(ada.parsed.replyTo?.text).toContain(LEADER)

    // The sent list shows it, opened onto its deliveries, and turns "queued" into "sent" by itself.
    const card = page.locator(`[data-message="${message.id}"]`)
    await card.getByText('3 sent · 0 queued · 0 failed · 1 skipped').waitFor()
    expect(await card.getByText('To the Wolf den').isVisible()).toBe(true)
    expect(await card.getByText(`by ${LEADER}`).isVisible()).toBe(true)
    for (const address of WOLF_ADDRESSES) await card.locator(`[data-delivery="${address}"][data-state="sent"]`).waitFor()
    expect(await card.locator('[data-state="skipped"]').textContent()).toBe("skipped Cy Young's household: no address")
    expect(page.url()).toEndWith(`/admin/messages/?id=${message.id}`)
    await screenshot(page, 'messages-sent-phone')

    // A link to the message opens it; the menu links the page for a leader.
    await page.reload()
    await card.locator(`[data-delivery="${PARENT}"][data-state="sent"]`).waitFor()
    expect(await card.locator('details').getAttribute('open')).not.toBeNull()
    await page.getByText('Admin menu').click()
    expect(await page.getByRole('link', { name: 'Messages', exact: true }).getAttribute('aria-current')).toBe('page')
    await page.close()
  }, 90_000)

  it("the footer's link stops the mail only when its button is pressed, and the family page turns it back on", async () => {
    const mail = relay.received.find((m) => m.subject === SUBJECT && m.to[0] === 'ada.home@example.org')!
    const link = linkIn(mail, `${suite.s.url}/unsubscribe/#`)
    // The same token serves mail programs' one-click unsubscribe (RFC 8058).
    const token = link.split('#')[1]
    expect(mail.parsed.headerLines.find((l) => l.key === 'list-unsubscribe')?.line).toContain(`/api/unsubscribe/${token}>`)
    const subscription = () =>
      suite.s.db
        .selectFrom('mail_subscriptions')
        .select('unsubscribed_at')
        .where('email', '=', 'ada.home@example.org')
        .executeTakeFirstOrThrow()

    // Anyone with the mail, signed in or not: opening the page changes nothing (link scanners open links).
    const visitor = await suite.browser.newContext({ viewport: PHONE, bypassCSP: true })
    const tab = await visitor.newPage()
    await tab.goto(link)
    const stop = tab.getByRole('button', { name: 'Stop these mails' })
    await stop.waitFor()
    expect((await subscription()).unsubscribed_at).toBeNull()
    expect(await tab.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex')
    expect(await seriousViolations(tab)).toEqual([])
    await stop.click()
    await tab.getByRole('status').filter({ hasText: 'ada.home@example.org gets no more messages or weekly digests' }).waitFor()
    expect((await subscription()).unsubscribed_at).not.toBeNull()

    // A link that is not known here, and the page without a link.
    await tab.goto(`${suite.s.url}/unsubscribe/#not-a-real-token`)
    await tab.getByRole('button', { name: 'Stop these mails' }).click()
    await tab.getByRole('status').filter({ hasText: 'This link is not known here, so nothing was changed.' }).waitFor()
    await tab.goto(`${suite.s.url}/unsubscribe/`)
    await tab.getByText('This page works from the link at the bottom of a mail from the site.').waitFor()
    expect(await tab.getByRole('button', { name: 'Stop these mails' }).isVisible()).toBe(false)
    await visitor.close()

    // The leader's count now leaves that address out.
    const leader = await suite.s.signIn(LEADER)
    const preview = await suite.s.req('POST', '/api/admin/messages/preview', {
      cookie: leader,
      json: { audience: { dens: [{ unit: 'pack', name: 'Wolf' }] } },
    })
    expect(preview.body.emails).toEqual([PARENT, 'ben.home@example.org'])

    // A link to an event's card (/family/#event-<uid>) lands on that event's card, made after the page loaded.
    const asked = await suite.s.req('POST', '/api/admin/calendar', {
      cookie: leader,
      json: { title: 'Spring campout', date: addDays(today(), 20), unit: 'pack', rsvp: true },
    })
    expect(asked.status).toBe(201)
    campout = asked.body.uid
    const parent = await suite.s.signIn(PARENT)
    const replied = await suite.s.req('PUT', `/api/admin/calendar/${encodeURIComponent(campout)}/rsvps`, {
      cookie: parent,
      json: { answer: 'yes', adults: 1, scouts: 1 },
    })
    expect(replied.status).toBe(200)
    const page = await suite.signedIn(PARENT, '/admin/account/')
    await page.goto(`${suite.s.url}/family/#event-${encodeURIComponent(campout)}`)
    await page.getByRole('heading', { name: 'Spring campout' }).waitFor()
    expect(campout).toContain('@')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`event-${encodeURIComponent(campout)}`)

    // The family turns the mail back on from their family page.
    const box = page.getByRole('group', { name: 'ada.home@example.org' }).getByLabel('Gets messages and the weekly digest')
    await box.waitFor()
    expect(await box.isChecked()).toBe(false)
    expect(await page.getByRole('group', { name: PARENT }).getByLabel('Gets messages and the weekly digest').isChecked()).toBe(true)
    await box.check()
    await page
      .getByRole('status')
      .filter({ hasText: "ada.home@example.org gets the leaders' messages and the weekly digest again." })
      .waitFor()
    expect((await subscription()).unsubscribed_at).toBeNull()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'family-mail-phone')
    const now = await suite.s.req('GET', '/api/admin/family/mail', { cookie: parent })
    expect(now.body.addresses).toContainEqual({ email: 'ada.home@example.org', subscribed: true })
    await page.close()
  }, 60_000)
  it('a leader writes to the families of an event by their reply: the count follows the reply filters', async () => {
    const page = await suite.signedIn(LEADER, '/admin/messages/')
    const event = page.getByLabel('Families of an event')
    await event.waitFor() // the calendar is read after the roster
    await event.selectOption(campout)
    const notAnswered = page.getByLabel('have not answered')
    await notAnswered.check()
    const count = page.locator('#count')
    await count
      .filter({ hasText: '2 addresses · 1 household has no address: the families of "Spring campout" who have not answered.' })
      .waitFor()
    await page.getByText('Show the addresses').click()
    expect(await page.locator('#count-emails li').allTextContents()).toEqual(['ben.home@example.org', 'dee.home@example.org'])
    await page.getByLabel('answered yes').check()
    await count.filter({ hasText: '4 addresses · 1 household has no address' }).waitFor()
    // Another event, or none, takes the reply filters away with it.
    await event.selectOption('')
    expect(await notAnswered.isVisible()).toBe(false)
    await count.filter({ hasText: 'Choose who gets it.' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.setViewportSize({ width: 1280, height: 800 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await screenshot(page, 'messages-laptop')
    await page.close()
  }, 60_000)
})

describe('messages without mail set up', () => {
  it('explains how to set mail up and offers no compose form; the sent list still shows', async () => {
    await unmailed.s.person({ ...ROLES.troopLeader, email: 'quiet.leader@example.org' })
    const page = await unmailed.signedIn('quiet.leader@example.org', '/admin/messages/')
    await page.getByRole('heading', { name: 'Mail is not set up on this site' }).waitFor()
    expect(await page.getByText('SMTP_URL').isVisible()).toBe(true)
    expect(await page.locator('#compose').count()).toBe(0)
    await page.getByText('No messages sent yet.').waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  }, 60_000)
})
