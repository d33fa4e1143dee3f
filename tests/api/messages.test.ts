// Messages from leaders through a real SMTP relay on loopback: each audience reaches exactly its addresses (each once,
// each alone), a leader reaches only the units they lead and every leader of those units sees the message, Markdown
// without raw HTML, Reply-To the sender, one-click unsubscribe (RFC 8058) and urgent mail, and 409 without mail.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { toICalendar } from '../../server/calendar/event.ts'
import { nowIso } from '../../server/schemas.ts'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN, eventually, expectDetail, ROLES, startServer, type TestServer, uniqueEmail, withServer } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { type Received, startRelay, type TestRelay } from '../mail.ts'
import { walkPages } from '../paging.ts'

let relay: TestRelay
let s: TestServer
let owner: { id: number; cookie: string; email: string }
let packLeader: { id: number; cookie: string; email: string }
let troopLeader: { id: number; cookie: string; email: string }

beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }, { mailRetryMs: 200 })
  owner = await s.as(ROLES.owner)
  packLeader = await s.as(ROLES.packLeader)
  await s.db.updateTable('people').set({ name: 'Robin Hale' }).where('id', '=', packLeader.id).execute()
  troopLeader = await s.as(ROLES.troopLeader)
  // These tests send far more than the hourly cap allows one person; the cap has its own test below.
  await setCap(1000)
  // Nor should the relay's per-minute pace hold the later tests' mail back.
  expect((await s.req('PUT', '/api/admin/settings/mail.per_minute', { cookie: owner.cookie, json: { value: 1000 } })).status).toBe(200)
})
const setCap = async (value: number) =>
  expect((await s.req('PUT', '/api/admin/settings/mail.messages_per_hour', { cookie: owner.cookie, json: { value } })).status).toBe(200)
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const send = (json: Record<string, unknown>, cookie = owner.cookie) =>
  s.req('POST', '/api/admin/messages', { cookie, json: { subject: 'Campout moved', body: 'Meet at **8 AM**.', ...json } })
const preview = (audience: Record<string, unknown>, cookie = owner.cookie, urgent = false) =>
  s.req('POST', '/api/admin/messages/preview', { cookie, json: { audience, urgent } })

/** Every den name in these tests is unique to it, so audiences never overlap between tests. */
let dens = 0
const denName = () => `Den ${process.pid}-${++dens}`

describe('audiences', () => {
  it('a den reaches its active households: the household email and linked accounts, each address once', async () => {
    const den = denName()
    const parent = await s.person({ units: [{ slug: 'pack', role: 'member' }] })
    const a = uniqueEmail('den-a')
    await household('pack', den, a, { accounts: [parent.id] })
    // The same address on a second household and as an account counts once.
    await household('pack', den, parent.email.toUpperCase())
    const quiet = await household('pack', den, null)
    await household('pack', den, uniqueEmail('inactive'), { active: false })
    await household('pack', denName(), uniqueEmail('other-den'))
    const res = await preview({ dens: [{ unit: 'pack', name: den.toLowerCase() }] })
    expect(res.status).toBe(200)
    expect(res.body.emails).toEqual([a, parent.email].sort())
    expect(res.body.recipients).toBe(2)
    expect(res.body.skipped).toEqual([{ email: null, who: "Parent without mail's household", reason: 'no address' }])
    expect(res.body.audience_words).toBe(`the ${den.toLowerCase()} den`)
    expect(quiet).toBeGreaterThan(0)
  })

  it("reaches both parents: the household's second_email is mailed too, and unsubscribes on its own", async () => {
    const den = denName()
    const first = uniqueEmail('first-parent')
    const second = uniqueEmail('second-parent')
    await household('pack', den, first, { second_email: second.toUpperCase() })
    const audience = { dens: [{ unit: 'pack', name: den }] }
    expect((await preview(audience)).body.emails).toEqual([first, second].sort())
    expect((await send({ subject: 'Both parents', audience })).body.recipients).toBe(2)
    await relay.waitFor(first)
    const mail = await relay.waitFor(second)
    const url = header(mail, 'list-unsubscribe')!.slice(1, -1)
    expect((await s.req('POST', new URL(url).pathname, { form: { 'List-Unsubscribe': 'One-Click' } })).body.email).toBe(second)
    const again = await send({ subject: 'Only the first', audience })
    expect(again.body.recipients).toBe(1)
    expect(again.body.deliveries).toContainEqual({ email: second, who: second, state: 'skipped', channel: 'mail', reason: 'unsubscribed' })
  })

  it('units, households and leaders each add their own, and nothing else', async () => {
    const troopFamily = uniqueEmail('troop-family')
    const id = await household('troop', denName(), troopFamily)
    const res = await preview({ households: [id], leaders: ['troop'] })
    expect(res.body.emails).toEqual([troopFamily, troopLeader.email].sort())
    const unit = await preview({ units: ['troop'] })
    expect(unit.body.emails).toContain(troopFamily)
    expect(unit.body.emails).not.toContain(troopLeader.email)
    expect((await preview({ units: ['pack'] })).body.emails).not.toContain(troopFamily)
  })

  it("an event's families, narrowed by their replies ('none': who has not answered)", async () => {
    const uid = `event-${process.pid}-${Date.now()}@test`
    const date = addDays(today(), 5)
    await s.db
      .insertInto('calendar_objects')
      .values({
        uid,
        url: `/${uid}.ics`,
        etag: null,
        ics: toICalendar(uid, { title: 'Hike', date, unit: 'troop' }, 'America/Chicago'),
        synced_at: nowIso(),
      })
      .execute()
    const [yes, no, silent] = [uniqueEmail('yes'), uniqueEmail('no'), uniqueEmail('silent')]
    const den = denName()
    const ids = [await household('troop', den, yes), await household('troop', den, no), await household('troop', den, silent)]
    const packFamily = await household('pack', denName(), uniqueEmail('pack-not-asked'))
    const byReply = (replies?: string[]) => preview({ event: { uid, ...(replies ? { replies } : {}) } })
    // The event does not ask for replies yet: a reply filter is refused, the whole event's families are fine.
    expectDetail422(await byReply(['yes']), 'does not ask for replies')
    const all = (await byReply()).body.emails
    expect(all).toEqual(expect.arrayContaining([yes, no, silent]))
    expect(all).not.toContain(
      (await s.db.selectFrom('households').select('email').where('id', '=', packFamily).executeTakeFirstOrThrow()).email,
    )
    await s.db
      .insertInto('rsvp_events')
      .values({
        uid,
        title: 'Hike',
        date,
        time: null,
        location: null,
        starts_at: `${date}T15:00:00.000Z`,
        asking: 1,
        asked_by: 'test',
        asked_at: nowIso(),
        gone_at: null,
      })
      .execute()
    const answer = (household_id: number, value: 'yes' | 'no') =>
      s.db
        .insertInto('rsvps')
        .values({ uid, household_id, answer: value, adults: 1, scouts: 1, note: null, answered_by: 'test', answered_at: nowIso() })
        .execute()
    await answer(ids[0], 'yes')
    await answer(ids[1], 'no')
    expect((await byReply(['yes'])).body.emails).toEqual([yes])
    expect((await byReply(['none'])).body.emails).toEqual(expect.arrayContaining([silent]))
    expect((await byReply(['none'])).body.emails).not.toContain(yes)
    expect((await byReply(['yes', 'no'])).body.emails).toEqual([no, yes].sort())
    expectDetail422(await preview({ event: { uid: 'no-such-event' } }), 'no event')
  })

  it('refuses an empty audience, an unknown den or household, and fields that do not fit (422)', async () => {
    expectDetail422(await preview({}), 'choose who gets it')
    expectDetail422(await preview({ dens: [{ unit: 'pack', name: 'Nowhere' }] }), 'no scout of the pack is in "Nowhere"')
    expectDetail422(await preview({ households: [999999] }), 'no active household 999999')
    expect((await preview({ units: ['crew'] })).status).toBe(422)
    expect((await preview({ everyone: true })).status).toBe(422)
    expect((await send({ subject: '', audience: { units: ['pack'] } })).status).toBe(422)
    expectDetail422(await send({ subject: '   ', audience: { units: ['pack'] } }), 'subject: must not be blank')
    expectDetail422(await send({ body: ' \n ', audience: { units: ['pack'] } }), 'body: must not be blank')
    expectDetail422(await send({ subject: 'a\r\nBcc: someone@example.org', audience: { units: ['pack'] } }), 'subject: must be one line')
  })
})

function expectDetail422(res: { status: number; body: any }, words: string) {
  expect(res.status).toBe(422)
  expect(res.body.detail).toContain(words)
}

describe('who may send to whom', () => {
  it('a leader sends only to units they lead (403 for the other unit, its households, its leaders and its events)', async () => {
    const troopHousehold = await household('troop', denName(), uniqueEmail('t'))
    for (const audience of [
      { units: ['troop'] },
      { leaders: ['troop'] },
      { households: [troopHousehold] },
      { dens: [{ unit: 'troop', name: 'x' }] },
    ]) {
      const res = await preview(audience, packLeader.cookie)
      expect(res.status).toBe(403)
      expect((await send({ audience }, packLeader.cookie)).status).toBe(403)
    }
    expect((await preview({ units: ['pack'] }, packLeader.cookie)).status).toBe(200)
    expect((await preview({ units: ['troop'] }, owner.cookie)).status).toBe(200)
  })

  it('a member, the break-glass token and no credential may not (403, 403, 401); a key with messages:send may', async () => {
    const member = await s.as(ROLES.member)
    expect((await preview({ units: ['pack'] }, member.cookie)).status).toBe(403)
    expect(
      (await s.req('POST', '/api/admin/messages/preview', { token: ADMIN_TOKEN, json: { audience: { units: ['pack'] } } })).status,
    ).toBe(403)
    expect((await s.req('GET', '/api/admin/messages', { token: ADMIN_TOKEN })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/messages')).status).toBe(401)
    const { key } = await s.mintKey(packLeader.cookie, ['messages:send'])
    const email = uniqueEmail('by-key')
    await household('pack', denName(), email)
    const res = await s.req('POST', '/api/admin/messages', {
      key,
      json: { subject: 'From a script', body: 'Hello', audience: { units: ['pack'] } },
    })
    expect(res.status).toBe(201)
    expect(res.body.sent_by).toBe(packLeader.email)
    expect((await relay.waitFor(email)).parsed.replyTo?.text).toBe(packLeader.email)
    expect((await s.lastLog('messages.send')).actor).toStartWith('key:test key#')
  })
})

describe('households without scouts, families in both units, and the hourly cap', () => {
  it('a leader may not mail a household with no scout in their units, even one they added (403 audience_out_of_scope)', async () => {
    const added = await s.req('POST', '/api/admin/roster/households', {
      cookie: packLeader.cookie,
      json: { parent_name: 'Nobody Yet', email: uniqueEmail('no-scouts') },
    })
    expect(added.status).toBe(201)
    const audience = { households: [added.body.id] }
    for (const res of [await preview(audience, packLeader.cookie), await send({ audience }, packLeader.cookie)]) {
      expect(res.status).toBe(403)
      expect(res.body.code).toBe('audience_out_of_scope')
    }
    const troopFamily = await household('troop', denName(), uniqueEmail('t'))
    expect((await preview({ households: [troopFamily] }, packLeader.cookie)).body.code).toBe('audience_out_of_scope')
    expect((await preview({ units: ['troop'] }, packLeader.cookie)).body.code).toBe('audience_out_of_scope')
    // An admin or owner still may: such a message belongs to no unit.
    const byOwner = await send({ audience }, owner.cookie)
    expect(byOwner.status).toBe(201)
    expect(byOwner.body.units).toEqual([])
  })

  it('a message is seen by the leaders of every unit its families have scouts in, whichever part named them', async () => {
    const den = denName()
    const both = await household('pack', den, uniqueEmail('both-units'))
    const troop = await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()
    await s.db
      .insertInto('scouts')
      .values({
        ...(await s.db.selectFrom('scouts').selectAll().where('household_id', '=', both).executeTakeFirstOrThrow()),
        id: undefined,
        first_name: 'Older',
        unit_id: troop.id,
        den: null,
      })
      .execute()
    for (const audience of [{ dens: [{ unit: 'pack', name: den }] }, { households: [both] }]) {
      const res = await send({ subject: 'Pack news', audience }, packLeader.cookie)
      expect(res.status).toBe(201)
      expect(res.body.units).toEqual(['pack', 'troop'])
      const seen = await s.req('GET', `/api/admin/messages/${res.body.id}`, { cookie: troopLeader.cookie })
      expect(seen.status).toBe(200)
      expect((await s.req('GET', '/api/admin/messages', { cookie: troopLeader.cookie })).body.messages.map((m: any) => m.id)).toContain(
        res.body.id,
      )
    }
    // Later tests count on the troop's families being troop-only.
    await s.db.updateTable('households').set({ active: 0 }).where('id', '=', both).execute()
  })

  it('caps each sender, admins and owners too, at mail.messages_per_hour: 429 message_cap_reached with Retry-After', async () => {
    await setCap(2)
    try {
      await household('pack', denName(), uniqueEmail('capped'))
      for (const sender of [await s.as(ROLES.packLeader), await s.as(ROLES.owner)]) {
        const sends = []
        for (let i = 0; i < 3; i++) sends.push(await send({ subject: `Note ${i}`, audience: { units: ['pack'] } }, sender.cookie))
        expect(sends.map((r) => r.status)).toEqual([201, 201, 429])
        expect(sends[2].body.code).toBe('message_cap_reached')
        const wait = Number(sends[2].headers.get('retry-after'))
        expect(wait).toBeGreaterThan(3500)
        expect(wait).toBeLessThanOrEqual(3600)
        const rows = await s.db.selectFrom('messages').select('id').where('sent_by', '=', sender.email).execute()
        expect(rows).toHaveLength(2)
      }
      // Another sender is not held back by them.
      expect((await send({ subject: 'Mine', audience: { units: ['pack'] } }, (await s.as(ROLES.packLeader)).cookie)).status).toBe(201)
    } finally {
      await setCap(1000)
    }
  })
})

describe('POST /api/admin/messages', () => {
  it('mails each address alone: text and HTML from the Markdown (raw HTML shown as text), Reply-To the leader, unsubscribe headers', async () => {
    const den = denName()
    const [a, b] = [uniqueEmail('to-a'), uniqueEmail('to-b')]
    await household('pack', den, a)
    await household('pack', den, b)
    const body = 'Meet at **8 AM**.\n\n- boots\n- water\n\n<script>alert(1)</script> [map](https://example.org/map)'
    const res = await send({ subject: 'Hike on Saturday', body, audience: { dens: [{ unit: 'pack', name: den }] } }, packLeader.cookie)
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      subject: 'Hike on Saturday',
      recipients: 2,
      urgent: false,
      units: ['pack'],
      sent_by: packLeader.email,
    })
    expect(res.body.deliveries.map((d: any) => [d.email, d.state])).toEqual([a, b].sort().map((e) => [e, 'queued']))
    const [mailA, mailB] = [await relay.waitFor(a), await relay.waitFor(b)]
    expect(mailA.to).toEqual([a])
    expect(mailB.to).toEqual([b])
    expect(mailA.subject).toBe('Hike on Saturday')
    expect(mailA.parsed.replyTo?.text).toBe(packLeader.email)
    expect(mailA.html).toContain('<strong>8 AM</strong>')
    expect(mailA.html).toContain('<li>boots</li>')
    expect(mailA.html).toContain('<a href="https://example.org/map">map</a>')
    expect(mailA.html).not.toContain('<script>')
    expect(mailA.html).toContain('&lt;script&gt;')
    expect(mailA.text).toContain('Meet at **8 AM**.')
    expect(mailA.text).toContain(`Sent by Robin Hale (${packLeader.email})`)
    expect(mailA.text).toContain(`because ${a} is on the roster of Pack & Troop`)
    expect(header(mailA, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(header(mailA, 'list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:1\/api\/unsubscribe\/[\w-]{43}>$/)
    expect(mailA.text).toMatch(/To stop these mails: http:\/\/127\.0\.0\.1:1\/unsubscribe\/#[\w-]{43}/)
    const log = await s.lastLog('messages.send')
    expect(log.actor).toBe(packLeader.email)
    expect(log.summary).toBe(`"Hike on Saturday" to 2 addresses (the ${den} den)`)
    await eventually(
      async () =>
        (await s.req('GET', `/api/admin/messages/${res.body.id}`, { cookie: packLeader.cookie })).body.deliveries_by_state.sent === 2,
    )
  })

  it('two-deep: every leader of the unit and every admin sees it with its deliveries; the other unit’s leader does not (404)', async () => {
    await household('troop', denName(), uniqueEmail('troop-only'))
    const otherTroopLeader = await s.as(ROLES.troopLeader)
    const res = await send({ subject: 'Troop only', audience: { units: ['troop'] } }, troopLeader.cookie)
    expect(res.status).toBe(201)
    const seenBy = async (cookie: string) => (await s.req('GET', '/api/admin/messages', { cookie })).body.messages.map((m: any) => m.id)
    expect(await seenBy(otherTroopLeader.cookie)).toContain(res.body.id)
    expect(await seenBy(owner.cookie)).toContain(res.body.id)
    expect(await seenBy(packLeader.cookie)).not.toContain(res.body.id)
    expect(
      (await s.req('GET', `/api/admin/messages/${res.body.id}`, { cookie: otherTroopLeader.cookie })).body.deliveries.length,
    ).toBeGreaterThan(0)
    expect((await s.req('GET', `/api/admin/messages/${res.body.id}`, { cookie: packLeader.cookie })).status).toBe(404)
    expect((await s.req('GET', '/api/admin/messages/999999', { cookie: owner.cookie })).status).toBe(404)
    const list = await s.req('GET', '/api/admin/messages?limit=1', { cookie: owner.cookie })
    expect(list.body.messages).toHaveLength(1)
    const older = await s.req('GET', `/api/admin/messages?before_id=${list.body.messages[0].id}`, { cookie: owner.cookie })
    expect(older.body.messages.every((m: any) => m.id < list.body.messages[0].id)).toBe(true)
  })

  it('pages with limit and cursor: each message the caller may read once, also while messages are sent', async () => {
    // Written straight to the table: paging needs rows, not mail, and a flood of mail would slow the tests after.
    const [pack, troop] = [
      { id: 1, slug: 'pack' },
      { id: 2, slug: 'troop' },
    ]
    const sent = (unit: typeof pack) =>
      s.db
        .insertInto('messages')
        .values({
          created_at: nowIso(),
          sender_person_id: owner.id,
          sent_by: owner.email,
          subject: `Paging ${unit.slug}`,
          body: 'Paging',
          audience: JSON.stringify({ units: [unit.slug], words: `the ${unit.slug}` }),
          unit_ids: JSON.stringify([unit.id]),
          recipients: 0,
        })
        .execute()
    for (const unit of [pack, troop, pack, troop, pack]) await sent(unit)
    const ids = (body: any) => body.messages.map((m: any) => m.id)
    for (const who of [owner, packLeader, troopLeader]) {
      const get = (path: string) => s.req('GET', path, { cookie: who.cookie })
      const all = ids((await get('/api/admin/messages?limit=1000')).body)
      expect(all.length).toBeGreaterThan(2)
      expect(await walkPages(get, '/api/admin/messages', 2, ids)).toEqual(all)
    }
    const get = (path: string) => s.req('GET', path, { cookie: owner.cookie })
    const all = ids((await get('/api/admin/messages?limit=1000')).body)
    expect(await walkPages(get, '/api/admin/messages', 1, ids, () => sent(pack))).toEqual(all)
    const bad = await get('/api/admin/messages?cursor=garbage')
    expectDetail(bad, 422)
    expect(bad.body.code).toBe('cursor_invalid')
    expectDetail(await get('/api/admin/messages?limit=1001'), 422)
  })

  it('422 when nobody would get it, and nothing is recorded', async () => {
    const den = denName()
    await household('pack', den, null)
    const before = await s.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expectDetail422(await send({ audience: { dens: [{ unit: 'pack', name: den }] } }), 'nobody would get it')
    const after = await s.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(after.n).toBe(before.n)
  })
})

describe('unsubscribe and urgent mail', () => {
  it('one-click unsubscribe stops non-urgent mail to that address; urgent mail still comes and is logged; the family turns it back on', async () => {
    const den = denName()
    const parent = await s.as({ units: [{ slug: 'pack', role: 'member' }] })
    const stay = uniqueEmail('stays')
    await household('pack', den, null, { accounts: [parent.id] })
    await household('pack', den, stay)
    const audience = { dens: [{ unit: 'pack', name: den }] }
    const first = await send({ subject: 'First', audience })
    expect(first.status).toBe(201)
    const mail = await relay.waitFor(parent.email)
    const url = header(mail, 'list-unsubscribe')!.slice(1, -1)
    // The mail program's one-click POST (RFC 8058): a form body, no credential.
    const one = await s.req('POST', new URL(url).pathname, { form: { 'List-Unsubscribe': 'One-Click' } })
    expect(one.status).toBe(200)
    expect(one.body.email).toBe(parent.email)
    expect((await s.lastLog('messages.unsubscribe')).summary).toBe(`${parent.email} unsubscribed from the site's mail`)
    expect((await s.req('POST', new URL(url).pathname)).status).toBe(200) // again: nothing changes
    // Providers post it from their own pages or the reader's browser: cross-site is taken here, and only here.
    const crossSite = { origin: 'https://mail.example.com', 'sec-fetch-site': 'cross-site' }
    const fromMailer = await s.req('POST', new URL(url).pathname, { form: { 'List-Unsubscribe': 'One-Click' }, headers: crossSite })
    expect(fromMailer.status).toBe(200)
    expect(fromMailer.body.email).toBe(parent.email)
    expect((await s.req('POST', '/api/forgot', { json: { email: parent.email }, headers: crossSite })).status).toBe(403)
    expect((await s.req('POST', '/api/unsubscribe/not-a-token', { headers: crossSite })).status).toBe(404)
    expect((await s.req('POST', '/api/unsubscribe/not-a-token')).status).toBe(404)

    const second = await send({ subject: 'Second', audience })
    expect(second.body.recipients).toBe(1)
    expect(second.body.deliveries).toContainEqual({
      email: parent.email,
      who: parent.email,
      state: 'skipped',
      channel: 'mail',
      reason: 'unsubscribed',
    })
    expect(second.body.deliveries_by_state.skipped).toBe(1)

    const urgent = await send({ subject: 'Campout cancelled', urgent: true, audience })
    expect(urgent.body.recipients).toBe(2)
    const urgentMail = await waitForSubject(parent.email, 'Campout cancelled')
    expect(header(urgentMail, 'list-unsubscribe')).toBeUndefined()
    expect(urgentMail.text).toContain('sent as urgent')
    expect((await s.lastLog('messages.send_urgent')).summary).toContain('"Campout cancelled" to 2 addresses')

    const mine = await s.req('GET', '/api/admin/family/mail', { cookie: parent.cookie })
    expect(mine.body.addresses).toEqual([{ email: parent.email, subscribed: false }])
    const on = await s.req('PUT', '/api/admin/family/mail', { cookie: parent.cookie, json: { email: parent.email, subscribed: true } })
    expect(on.body.addresses).toEqual([{ email: parent.email, subscribed: true }])
    expect((await s.lastLog('messages.subscription')).summary).toBe(`Turned back on the site's mail to ${parent.email}`)
    expect((await preview(audience)).body.emails).toContain(parent.email)
    // Another family's address is not theirs to change.
    expect((await s.req('PUT', '/api/admin/family/mail', { cookie: parent.cookie, json: { email: stay, subscribed: false } })).status).toBe(
      404,
    )
  })
})

/** A header as it was sent (mailparser reads List-* headers into objects). */
const header = (mail: Received, name: string) =>
  mail.parsed.headerLines
    .find((h) => h.key === name)
    ?.line.slice(name.length + 1)
    .trim()

async function waitForSubject(to: string, subject: string) {
  await eventually(async () => relay.received.some((m) => m.to.includes(to) && m.subject === subject), 20_000)
  return relay.received.find((m) => m.to.includes(to) && m.subject === subject)!
}

describe('without mail', () => {
  it('sending answers 409 and says how to set mail up; preview and the list still answer', async () => {
    await withServer({}, async (quiet) => {
      const admin = await quiet.as(ROLES.owner)
      const res = await quiet.req('POST', '/api/admin/messages', {
        cookie: admin.cookie,
        json: { subject: 'x', body: 'y', audience: { units: ['pack'] } },
      })
      expect(res.status).toBe(409)
      expect(res.body.detail).toContain('SMTP_URL')
      expect((await quiet.req('GET', '/api/admin/messages', { cookie: admin.cookie })).body).toEqual({ messages: [], next_cursor: null })
    })
  })
})

const household = (
  unit: 'pack' | 'troop',
  den: string | null,
  email: string | null,
  options: { active?: boolean; accounts?: number[]; second_email?: string } = {},
) => addHousehold(s.db, { unit, den, email, ...options })
