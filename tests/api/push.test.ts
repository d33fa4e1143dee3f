// Web Push end to end over loopback: the VAPID key, subscribing and its 422s (https, the outbound guard, key lengths),
// and the pushes themselves, taken by a push-service stand-in that checks each VAPID signature and decrypts each
// payload with the device's private key: an urgent message, a reminder, a move-up and a lead alert each arrive once on
// every device of the account, beside the mail; a 410 removes the subscription; a 500 is retried; each person's choice
// of mail, push or both is kept; and the message's deliveries show the pushes with `channel: push`.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { REMIND_BEFORE } from '../../server/calendar/reminders.ts'
import { utcToZoned } from '../../server/calendar/zone.ts'
import { getSetting } from '../../server/settings/registry.ts'
import { addDays, today } from '../dates.ts'
import { eventually, expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { startRelay, type TestRelay } from '../mail.ts'
import { startPushService, type PushStandIn, type TestDevice } from '../push.ts'

let relay: TestRelay
let push: PushStandIn
let s: TestServer
let leader: { id: number; cookie: string; email: string }
let publicKey: string

beforeAll(async () => {
  relay = await startRelay()
  push = await startPushService()
  s = await startServer(
    { SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>', OUTBOUND_ALLOW: '127.0.0.1/32' },
    { mailRetryMs: 100 },
  )
  leader = await s.as(ROLES.packLeader)
  // These tests send more messages than the hourly cap allows one leader.
  const owner = await s.as(ROLES.owner)
  const cap = await s.req('PUT', '/api/admin/settings/mail.messages_per_hour', { cookie: owner.cookie, json: { value: 1000 } })
  expect(cap.status).toBe(200)
  publicKey = (await s.req('GET', '/api/push/key')).body.public_key
})
afterAll(async () => {
  await s.stop()
  await relay.close()
  await push.close()
})

type Family = Awaited<ReturnType<typeof familyAccount>>
const family = (): Promise<Family> => familyAccount(s, { unit: 'pack', email: null })
const subscribe = (cookie: string, json: unknown) => s.req('POST', '/api/admin/account/push', { cookie, json })
async function device(cookie: string): Promise<TestDevice> {
  const d = push.device()
  expect((await subscribe(cookie, d.subscription)).status).toBe(201)
  return d
}
const pushesTo = (d: TestDevice) => push.received.filter((p) => p.device === d.id)
const urgent = async (f: Family, subject: string) => {
  const res = await s.req('POST', '/api/admin/messages', {
    cookie: leader.cookie,
    json: { subject, body: 'The campout is **off**: the road is closed.', audience: { households: [f.household] }, urgent: true },
  })
  expect(res.status).toBe(201)
  return res
}
const pushRows = (where: { person?: number; message?: number }) =>
  s.db
    .selectFrom('push_outbox')
    .selectAll()
    .$if(where.person !== undefined, (q) => q.where('person_id', '=', where.person!))
    .$if(where.message !== undefined, (q) => q.where('message_id', '=', where.message!))
    .execute()
const settled = (message: number) =>
  eventually(async () => (await pushRows({ message })).every((r) => r.state === 'sent' || r.state === 'failed'))
const personOf = async (f: Family) =>
  (await s.db.selectFrom('people').select('id').where('email', '=', f.email).executeTakeFirstOrThrow()).id

describe('the key and subscribing', () => {
  it('GET /api/push/key answers the same P-256 public key to anyone', async () => {
    const again = await s.req('GET', '/api/push/key')
    expect(again.status).toBe(200)
    expect(again.body.public_key).toBe(publicKey)
    const raw = Buffer.from(publicKey, 'base64url')
    expect([raw.length, raw[0]]).toEqual([65, 4])
  })

  it('keeps a device once for whoever sent it last (201), ends it (200), and 404s an endpoint not yours', async () => {
    const [a, b] = [await family(), await family()]
    const d = push.device()
    const first = await subscribe(a.cookie, d.subscription)
    expect(first.status).toBe(201)
    expect(first.body.devices).toMatchObject([{ service: new URL(push.url).host }])
    expect(first.body.preferences).toEqual({ urgent: 'both', reminder: 'both', signup: 'both', lead_alert: 'both' })
    expect((await s.lastLog('account.push_subscribe')).summary).toContain(new URL(push.url).host)
    expect((await subscribe(a.cookie, d.subscription)).body.devices).toHaveLength(1)
    expectDetail(await s.req('DELETE', '/api/admin/account/push', { cookie: b.cookie, json: { endpoint: d.subscription.endpoint } }), 404)
    const ended = await s.req('DELETE', '/api/admin/account/push', { cookie: a.cookie, json: { endpoint: d.subscription.endpoint } })
    expect(ended.status).toBe(200)
    expect(ended.body.devices).toEqual([])
    expect((await s.lastLog('account.push_unsubscribe')).actor).toContain(a.email)
    expectDetail(await s.req('DELETE', '/api/admin/account/push', { cookie: a.cookie, json: { endpoint: d.subscription.endpoint } }), 404)
  })

  it('refuses 401 without a sign-in and 422 an endpoint not https or not public, or keys of the wrong length', async () => {
    const f = await family()
    const { keys } = push.device().subscription
    expect((await s.req('POST', '/api/admin/account/push', { json: { endpoint: 'https://push.example.org/x', keys } })).status).toBe(401)
    const refused = async (json: unknown, field: string) => {
      const res = await subscribe(f.cookie, json)
      expectDetail(res, 422)
      expect(res.body.detail).toStartWith(field)
    }
    await refused({ endpoint: 'http://203.0.113.9/push/x', keys }, 'endpoint:') // plain http outside OUTBOUND_ALLOW
    await refused({ endpoint: 'https://10.1.2.3/push/x', keys }, 'endpoint:') // a private network
    await refused({ endpoint: 'https://192.168.1.5/push/x', keys }, 'endpoint:')
    await refused({ endpoint: 'https://[::1]/push/x', keys }, 'endpoint:')
    await refused({ endpoint: 'ftp://push.example.org/x', keys }, 'endpoint:')
    await refused({ endpoint: 'not a url', keys }, 'endpoint:')
    await refused({ endpoint: 'https://push.example.org/x', keys: { ...keys, p256dh: keys.p256dh.slice(0, 40) } }, 'keys.p256dh:')
    await refused({ endpoint: 'https://push.example.org/x', keys: { ...keys, auth: 'QUJD' } }, 'keys.auth:')
    expectDetail(await subscribe(f.cookie, { endpoint: 'https://push.example.org/x', keys: { ...keys, auth: 'not base64!' } }), 422)
    expectDetail(await subscribe(f.cookie, { endpoint: 'https://push.example.org/x' }), 422)
    // A public https push service is kept (nothing is sent to it here).
    expect((await subscribe(f.cookie, { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys })).status).toBe(201)
  })
})

describe('signing out', () => {
  it('ends the subscriptions that session made (sign out, or sign out there); the account’s other devices keep theirs', async () => {
    const f = await family()
    const [laptopCookie, tabletCookie] = [await s.signIn(f.email), await s.signIn(f.email)]
    const [phone, laptop, tablet] = [await device(f.cookie), await device(laptopCookie), await device(tabletCookie)]
    const devices = async () => (await s.req('GET', '/api/admin/account/push', { cookie: laptopCookie })).body.devices.length
    expect(await devices()).toBe(3)
    const out = await s.req('POST', '/logout', { cookie: f.cookie })
    expect(out.status).toBe(200)
    expect(await devices()).toBe(2)
    // "Sign out there" from the laptop ends the tablet's session and its notifications.
    const sessions = (await s.req('GET', '/api/admin/account/sessions', { cookie: laptopCookie })).body.sessions
    const tabletSession = sessions.find((x: any) => !x.current)
    expect((await s.req('DELETE', `/api/admin/account/sessions/${tabletSession.id}`, { cookie: laptopCookie })).status).toBe(200)
    expect(await devices()).toBe(1)
    const res = await urgent(f, 'Only the laptop')
    await settled(res.body.id)
    expect([pushesTo(phone).length, pushesTo(laptop).length, pushesTo(tablet).length]).toEqual([0, 1, 0])
  })
})

describe('what buzzes', () => {
  it('an urgent message reaches every device of the account once, beside the mail, signed with the site key', async () => {
    const f = await family()
    const [phone, laptop] = [await device(f.cookie), await device(f.cookie)]
    const res = await urgent(f, 'Campout cancelled')
    expect(res.status).toBe(201)
    await relay.waitFor(f.email)
    await settled(res.body.id)
    for (const d of [phone, laptop]) {
      expect(pushesTo(d)).toHaveLength(1)
      const [p] = pushesTo(d)
      expect(p.payload).toMatchObject({
        title: 'Campout cancelled',
        body: 'The campout is off: the road is closed.',
        url: 'http://127.0.0.1:1/family/',
      })
      expect(p.vapidKey).toBe(publicKey)
      expect(p.headers.get('urgency')).toBe('high')
      expect(Number(p.headers.get('ttl'))).toBeGreaterThan(0)
    }
    const detail = (await s.req('GET', `/api/admin/messages/${res.body.id}`, { cookie: leader.cookie })).body
    const pushes = detail.deliveries.filter((d: any) => d.channel === 'push')
    expect(pushes).toHaveLength(2)
    expect(pushes.every((d: any) => d.state === 'sent' && d.email === f.email && d.at)).toBe(true)
    expect(detail.deliveries.filter((d: any) => d.channel === 'mail')).toMatchObject([{ email: f.email, channel: 'mail' }])
    expect(detail.deliveries_by_state.sent).toBe(3)

    // A message that is not urgent only mails.
    const calm = await s.req('POST', '/api/admin/messages', {
      cookie: leader.cookie,
      json: { subject: 'Bring snacks', body: 'Thanks!', audience: { households: [f.household] } },
    })
    expect(calm.status).toBe(201)
    expect(await pushRows({ message: calm.body.id })).toEqual([])
  })

  it('a reminder before the start arrives once as a push that opens the household’s reply', async () => {
    const f = await family()
    const phone = await device(f.cookie)
    const startsAt = utcToZoned(Date.now() + 20 * 3_600_000, await getSetting(s.db, 'site.timezone'))
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Pack meeting', date: startsAt.date, time: startsAt.time, unit: 'pack', rsvp: true },
    })
    expect(created.status).toBe(201)
    await s.db
      .insertInto('rsvps')
      .values({
        uid: created.body.uid,
        household_id: f.household,
        answer: 'yes',
        adults: 1,
        scouts: 1,
        note: null,
        answered_by: 'test',
        answered_at: new Date(Date.now() - 2 * REMIND_BEFORE.before_start).toISOString(),
      })
      .execute()
    s.startReminders()
    await relay.waitFor(f.email)
    await eventually(async () => pushesTo(phone).length > 0)
    const person = await personOf(f)
    await eventually(async () => (await pushRows({ person })).every((r) => r.state === 'sent'))
    expect(pushesTo(phone)).toHaveLength(1)
    expect(pushesTo(phone)[0].payload.title).toBe('Tomorrow: Pack meeting')
    expect(pushesTo(phone)[0].payload.url).toStartWith('http://127.0.0.1:1/reply/')
    expect(pushesTo(phone)[0].headers.get('urgency')).toBe('normal')
  })

  it('a place coming free arrives once on the phone of the household that moved up', async () => {
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Cabin weekend', date: addDays(today(), 30), unit: 'pack', rsvp: true, signup: { capacity: 1 } },
    })
    const uid = created.body.uid as string
    const path = `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`
    const [a, b] = [await family(), await family()]
    const phone = await device(b.cookie)
    const answer = (f: Family, answer: string, scouts: number) =>
      s.req('PUT', path, { cookie: f.cookie, json: { answer, adults: 1, scouts } })
    expect((await answer(a, 'yes', 1)).body.status).toBe('confirmed')
    expect((await answer(b, 'yes', 1)).body.status).toBe('waitlisted')
    expect(pushesTo(phone)).toHaveLength(0)
    expect((await answer(a, 'no', 0)).status).toBe(200)
    await relay.waitFor(b.email)
    await eventually(async () => pushesTo(phone).length > 0)
    const person = await personOf(b)
    await eventually(async () => (await pushRows({ person })).every((r) => r.state === 'sent'))
    expect(pushesTo(phone).map((p) => p.payload.title)).toEqual(['A place came free: you are coming to Cabin weekend'])
  })

  it('a new lead buzzes the leader who subscribed', async () => {
    const alerted = await s.as(ROLES.packLeader)
    const phone = await device(alerted.cookie)
    const res = await s.req('POST', '/api/join', { json: { parent_name: 'Ada Push', email: 'ada.push@example.org', unit: 'pack' } })
    expect(res.status).toBe(201)
    await eventually(async () => pushesTo(phone).length > 0)
    expect(pushesTo(phone)[0].payload).toMatchObject({ title: 'A new family sent the join form', url: 'http://127.0.0.1:1/admin/leads/' })
  })

  it('a leader who chose notifications alone gets one lead alert in ten minutes, as mail would be', async () => {
    const alerted = await s.as(ROLES.troopLeader)
    const phone = await device(alerted.cookie)
    expect(
      (await s.req('PUT', '/api/admin/account/push/preferences', { cookie: alerted.cookie, json: { lead_alert: 'push' } })).status,
    ).toBe(200)
    for (const n of [1, 2]) {
      const res = await s.req('POST', '/api/join', {
        json: { parent_name: `Troop Push ${n}`, email: `troop.push.${n}@example.org`, unit: 'troop' },
      })
      expect(res.status).toBe(201)
    }
    await eventually(async () => pushesTo(phone).length > 0)
    const person = alerted.id
    await eventually(async () => (await pushRows({ person })).every((r) => r.state === 'sent'))
    expect(await pushRows({ person })).toHaveLength(1)
    expect(pushesTo(phone)).toHaveLength(1)
    expect(await s.db.selectFrom('mail_outbox').select('id').where('to_address', '=', alerted.email).execute()).toEqual([])
  })
})

describe('when the push service says no', () => {
  it('a 410 removes the subscription and fails what waited for it; the next message only mails', async () => {
    const f = await family()
    const phone = await device(f.cookie)
    push.answerNext(410)
    const res = await urgent(f, 'Gone phone')
    await settled(res.body.id)
    const [row] = await pushRows({ message: res.body.id })
    expect(row).toMatchObject({ state: 'failed', subscription_id: null })
    expect(row.error).toContain('answered 410')
    expect(pushesTo(phone)).toHaveLength(0)
    expect((await s.req('GET', '/api/admin/account/push', { cookie: f.cookie })).body.devices).toEqual([])
    expect((await s.lastLog('account.push_gone')).actor).toBe('system')
    const detail = (await s.req('GET', `/api/admin/messages/${res.body.id}`, { cookie: leader.cookie })).body
    expect(detail.deliveries.find((d: any) => d.channel === 'push')).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('410'),
    })
    const next = await urgent(f, 'After the phone left')
    expect(await pushRows({ message: next.body.id })).toEqual([])
  })

  it('a 500 is tried again and the push arrives once', async () => {
    const f = await family()
    const phone = await device(f.cookie)
    push.answerNext(500)
    const res = await urgent(f, 'Try again')
    await eventually(async () => pushesTo(phone).length > 0, 10_000)
    await settled(res.body.id)
    const [row] = await pushRows({ message: res.body.id })
    expect(row).toMatchObject({ state: 'sent', attempts: 2 })
    expect(pushesTo(phone)).toHaveLength(1)
  })

  it('an endpoint the guard no longer allows fails at once, without a call', async () => {
    const f = await family()
    const phone = await device(f.cookie)
    // As if OUTBOUND_ALLOW had changed since the device subscribed.
    await s.db
      .updateTable('push_subscriptions')
      .set({ endpoint: 'http://10.9.8.7/push/x' })
      .where('endpoint', '=', phone.subscription.endpoint)
      .execute()
    const res = await urgent(f, 'Nowhere to go')
    await settled(res.body.id)
    const [row] = await pushRows({ message: res.body.id })
    expect(row).toMatchObject({ state: 'failed', attempts: 1 })
    expect(row.error).toContain('must not point at this machine or a private network')
  })
})

describe('each person’s choice per kind', () => {
  it('mail only, push only, both; push only still mails while there is no device; 422 for another word', async () => {
    const f = await family()
    const prefs = (json: unknown) => s.req('PUT', '/api/admin/account/push/preferences', { cookie: f.cookie, json })
    const mailed = async (message: number) =>
      (await s.db.selectFrom('mail_outbox').select('id').where('message_id', '=', message).where('to_address', '=', f.email).execute())
        .length
    expectDetail(await prefs({ urgent: 'pigeon' }), 422)
    expectDetail(await prefs({ sms: 'push' }), 422)

    const pushOnly = await prefs({ urgent: 'push' })
    expect(pushOnly.status).toBe(200)
    expect(pushOnly.body.preferences).toMatchObject({ urgent: 'push', reminder: 'both' })
    expect((await s.lastLog('account.push_preferences')).summary).toBe('urgent: push')
    const noDevice = await urgent(f, 'No device yet')
    expect(await mailed(noDevice.body.id)).toBe(1)

    const phone = await device(f.cookie)
    const onlyPushed = await urgent(f, 'Push only')
    await settled(onlyPushed.body.id)
    expect(await mailed(onlyPushed.body.id)).toBe(0)
    expect(pushesTo(phone).map((p) => p.payload.title)).toEqual(['Push only'])

    await prefs({ urgent: 'mail' })
    const onlyMailed = await urgent(f, 'Mail only')
    expect(await mailed(onlyMailed.body.id)).toBe(1)
    expect(await pushRows({ message: onlyMailed.body.id })).toEqual([])

    expect((await prefs({ urgent: 'both' })).body.preferences.urgent).toBe('both')
    const both = await urgent(f, 'Both ways')
    await settled(both.body.id)
    expect(await mailed(both.body.id)).toBe(1)
    expect(pushesTo(phone).map((p) => p.payload.title)).toEqual(['Push only', 'Both ways'])
  })
})
