// Welcoming the roster through a real SMTP relay on loopback: one mail per active household address with no account
// (the unit, its leaders and a 7-day sign-in link that makes the family account), nobody welcomed twice within 7
// days, and who may ask: roster:write and messages:send from the credential, a leader for the units they lead.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES, startServer, type TestServer, uniqueEmail, withServer } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'

let relay: TestRelay
let s: TestServer
let admin: { id: number; cookie: string }
let packLeader: { id: number; email: string; cookie: string }
beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' })
  admin = await s.as(ROLES.admin)
  packLeader = await s.as({ units: [{ slug: 'pack', role: 'leader', title: 'Cubmaster' }] })
  await s.db.updateTable('people').set({ name: 'Akela Brown' }).where('id', '=', packLeader.id).execute()
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const LINK = 'http://127.0.0.1:1/login/link/'
const welcome = (cookie: string, json: Record<string, unknown> = {}) => s.req('POST', '/api/admin/roster/welcome', { cookie, json })
const outboxTo = (to: string) => s.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).execute()

describe('POST /api/admin/roster/welcome', () => {
  it('mails each active household address with no account once, with the unit, its leaders and a link that makes the account', async () => {
    const pack = uniqueEmail('pack')
    const troop = uniqueEmail('troop')
    const shared = uniqueEmail('shared')
    const member = await s.person(ROLES.member)
    const packHousehold = await addHousehold(s.db, { unit: 'pack', email: pack, parent_name: 'Robin Hale' })
    await addHousehold(s.db, { unit: 'troop', email: troop })
    await addHousehold(s.db, { unit: 'pack', email: member.email }) // has an account
    await addHousehold(s.db, { unit: 'pack', email: uniqueEmail('left'), active: false })
    await addHousehold(s.db, { unit: 'pack', email: null })
    await addHousehold(s.db, { unit: 'pack', email: shared })
    await addHousehold(s.db, { unit: 'troop', email: shared.toUpperCase() })
    const res = await welcome(admin.cookie)
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ queued: 3 })
    const mail = await relay.waitFor(pack)
    expect(mail.subject).toBe('Welcome to Pack & Troop')
    expect(mail.text).toContain('Pack & Troop is the website of the Cub Scout Pack')
    expect(mail.text).toContain('Your leaders: Akela Brown, Cubmaster (Cub Scout Pack).')
    await relay.waitFor(troop)
    await relay.waitFor(shared)
    expect((await outboxTo(shared)).length).toBe(1)
    // Both households of the shared address count as welcomed.
    expect((await s.db.selectFrom('roster_welcomes').select('id').where('email', '=', shared).execute()).length).toBe(2)
    expect(await outboxTo(member.email)).toEqual([])
    expect((await outboxTo(pack))[0]).toMatchObject({ kind: 'welcome', sensitive: 1 })
    const [link] = await s.db.selectFrom('login_links').selectAll().where('email', '=', pack).execute()
    expect(link).toMatchObject({ kind: 'welcome', household_id: packHousehold, person_id: null })
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(7 * 86_400_000)
    expect(await s.db.selectFrom('roster_welcomes').select(['household_id', 'sent_by']).where('email', '=', pack).execute()).toEqual([
      { household_id: packHousehold, sent_by: (await s.lastLog('roster.welcome')).actor },
    ])
    expect((await s.lastLog('roster.welcome')).summary).toBe(
      'Welcomed 3 households of the Cub Scout Pack and Scouts BSA Troop by mail, each with a sign-in link',
    )
    // The welcome's link signs the family in and makes their account, linked to their household.
    const used = await s.req('POST', `/api/login-link/${linkIn(mail, LINK).slice(LINK.length)}`)
    expect(used.status).toBe(200)
    expect(used.body).toMatchObject({ person: { email: pack }, start: '/family/' })
    const cookie = used.headers
      .getSetCookie()
      .find((c) => c.startsWith('site_session='))!
      .split(';')[0]
    const family = await s.req('GET', '/api/admin/family', { cookie })
    expect(family.body.households.map((h: { id: number }) => h.id)).toEqual([packHousehold])
  })

  it("welcomes both parents' addresses, each once; a second address added later is welcomed within the 7 days", async () => {
    const first = uniqueEmail('bothfirst')
    const second = uniqueEmail('bothsecond')
    const household = await addHousehold(s.db, { unit: 'troop', email: first, second_email: second })
    expect((await welcome(admin.cookie, { unit: 'troop' })).body).toEqual({ queued: 2 })
    await relay.waitFor(first)
    await relay.waitFor(second)
    expect((await outboxTo(second)).length).toBe(1)
    const [link] = await s.db.selectFrom('login_links').selectAll().where('email', '=', second).execute()
    expect(link).toMatchObject({ kind: 'welcome', household_id: household, person_id: null })
    expect((await welcome(admin.cookie, { unit: 'troop' })).body).toEqual({ queued: 0 })
    const later = uniqueEmail('latersecond')
    await s.db.updateTable('households').set({ second_email: later }).where('id', '=', household).execute()
    expect((await welcome(admin.cookie, { unit: 'troop' })).body).toEqual({ queued: 1 })
    expect((await outboxTo(later)).length).toBe(1)
    expect((await outboxTo(first)).length).toBe(1)
  })

  it('skips a household welcomed in the last 7 days, and welcomes it again after', async () => {
    const email = uniqueEmail('again')
    const household = await addHousehold(s.db, { unit: 'troop', email })
    expect((await welcome(admin.cookie, { unit: 'troop' })).body).toEqual({ queued: 1 })
    expect((await welcome(admin.cookie, { unit: 'troop' })).body).toEqual({ queued: 0 })
    await s.db
      .updateTable('roster_welcomes')
      .set({ sent_at: new Date(Date.now() - 8 * 86_400_000).toISOString() })
      .where('household_id', '=', household)
      .execute()
    expect((await welcome(admin.cookie, { unit: 'troop' })).body).toEqual({ queued: 1 })
    expect((await outboxTo(email)).length).toBe(2)
  })

  it('lets a leader welcome only the units they lead: 403 unit_out_of_scope for another', async () => {
    const pack = uniqueEmail('leaderpack')
    const troop = uniqueEmail('leadertroop')
    await addHousehold(s.db, { unit: 'pack', email: pack })
    await addHousehold(s.db, { unit: 'troop', email: troop })
    const refused = await welcome(packLeader.cookie, { unit: 'troop' })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('unit_out_of_scope')
    expect((await welcome(packLeader.cookie)).body).toEqual({ queued: 1 })
    expect((await outboxTo(pack)).length).toBe(1)
    expect(await outboxTo(troop)).toEqual([])
  })

  it('needs messages:send as well as roster:write (from the credential), and a known unit', async () => {
    const key = await s.mintKey(admin.cookie, ['roster:write'])
    const res = await s.req('POST', '/api/admin/roster/welcome', { key: key.key, json: {} })
    expect(res.status).toBe(403)
    expect(res.body.detail).toContain('messages:send')
    const both = await s.mintKey(admin.cookie, ['roster:write', 'messages:send'])
    expect((await s.req('POST', '/api/admin/roster/welcome', { key: both.key, json: {} })).status).toBe(202)
    const member = await s.as(ROLES.member)
    expect((await welcome(member.cookie)).status).toBe(403)
    expect((await welcome(admin.cookie, { unit: 'den-9' })).status).toBe(404)
  })

  it('answers 409 while mail is not set up', () =>
    withServer({}, async (srv) => {
      const owner = await srv.as(ROLES.owner)
      const res = await srv.req('POST', '/api/admin/roster/welcome', { cookie: owner.cookie, json: {} })
      expect(res.status).toBe(409)
    }))
})
