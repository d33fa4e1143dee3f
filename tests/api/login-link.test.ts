// "Email me a sign-in link" through a real SMTP relay on loopback: the same 202 for every address, a link only to an
// account's or an active roster household's address, one use within 20 minutes, a family account made on the first
// use by a roster address, the second factor still asked, refusals checked when the link is used, and the limits.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Secret, TOTP } from 'otpauth'
import { PASSWORD, ROLES, startServer, type TestServer, uniqueEmail, withServer } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { pruneExpired } from '../../server/ops/retention.ts'
import { linkIn, type Received, startRelay, type TestRelay } from '../mail.ts'

let relay: TestRelay
let s: TestServer
beforeAll(async () => {
  relay = await startRelay()
  // Each ask comes from its own client (X-Forwarded-For from a trusted loopback), so the per-client limit stays out of
  // the way until the test of it.
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>', TRUST_PROXY: '127.0.0.1/32' })
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const LINK = 'http://127.0.0.1:1/login/link/'
let client = 0
/** Asks from a client of its own, or (`null`) from the test's own address. */
const ask = (srv: TestServer, email: string, from: string | null = `198.51.100.${++client}`) =>
  srv.req('POST', '/api/login-link', { json: { email }, headers: from ? { 'x-forwarded-for': from } : {} })
const use = (srv: TestServer, token: string) => srv.req('POST', `/api/login-link/${token}`)
const tokenOf = (mail: Received) => linkIn(mail, LINK).slice(LINK.length)
const outboxTo = (to: string) => s.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute()
const linksTo = (to: string) => s.db.selectFrom('login_links').selectAll().where('email', '=', to).orderBy('id').execute()
const sessionCookie = (res: { headers: Headers }) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('site_session='))
    ?.split(';')[0]

const mailsTo = (to: string) => relay.received.filter((m) => m.to.includes(to) && m.text.includes(LINK))

/** Asks for a link for `email` and answers the token of the mail the relay receives for it. */
async function mailedToken(email: string): Promise<string> {
  const before = mailsTo(email).length
  expect((await ask(s, email)).status).toBe(202)
  while (mailsTo(email).length === before) await relay.waitForCount(relay.received.length + 1)
  return tokenOf(mailsTo(email)[before])
}

describe('POST /api/login-link', () => {
  it('answers 202 with the same words for every address and mails only an account and an active roster address', async () => {
    const account = await s.person(ROLES.member)
    const disabled = await s.person(ROLES.member)
    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', disabled.id).execute()
    const roster = uniqueEmail('roster')
    const gone = uniqueEmail('gone')
    await addHousehold(s.db, { unit: 'pack', email: roster.toUpperCase() })
    await addHousehold(s.db, { unit: 'pack', email: gone, active: false })
    const answers = []
    for (const email of [uniqueEmail('nobody'), disabled.email, gone, account.email.toUpperCase(), roster])
      answers.push(await ask(s, email))
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202])
    expect(new Set(answers.map((a) => a.text)).size).toBe(1)
    expect(answers[0].body.detail).toContain('a sign-in link is on its way')
    const [toAccount, toRoster] = [await relay.waitFor(account.email), await relay.waitFor(roster)]
    expect(toAccount.subject).toBe('Your sign-in link for Pack & Troop')
    expect(toAccount.text).toContain(`Someone, probably you, asked to sign in to Pack & Troop as ${account.email}.`)
    expect(toAccount.text).toContain('The link works once, until')
    expect(linkIn(toRoster, LINK)).toMatch(/^http:\/\/127\.0\.0\.1:1\/login\/link\/[\w-]{43}$/)
    expect(await outboxTo(disabled.email)).toEqual([])
    expect(await outboxTo(gone)).toEqual([])
    const [row] = await linksTo(roster)
    // Stored hashed, valid 20 minutes.
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(row.token_hash).not.toContain(tokenOf(toRoster))
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(20 * 60_000)
    expect((await outboxTo(roster))[0]).toMatchObject({ kind: 'login_link', sensitive: 1, priority: 0 })
    expect(await s.lastLog('login.link')).toMatchObject({
      actor: 'anonymous',
      summary: `A sign-in link for ${roster} was asked for on the sign-in page, from 198.51.100.${client}`,
    })
  })

  it('answers 422 to something that is not an email address', async () => {
    expect((await ask(s, 'not-an-address')).status).toBe(422)
  })

  it('takes a form post and sees it on to the page that says a link is on its way', async () => {
    const res = await s.req('POST', '/api/login-link', {
      form: { email: uniqueEmail('form') },
      headers: { 'x-forwarded-for': '198.51.100.250' },
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/login/email-link/sent/')
  })
})

describe('POST /api/login-link/:token', () => {
  it("makes a roster address's family account on first use: a member of its scouts' units, linked to that household only", async () => {
    const email = uniqueEmail('newfamily')
    const household = await addHousehold(s.db, { unit: 'troop', email, parent_name: 'Casey Ortiz', scouts: 2 })
    await addHousehold(s.db, { unit: 'pack', email: uniqueEmail('other') })
    const token = await mailedToken(email)
    expect(await s.db.selectFrom('people').select('id').where('email', '=', email).execute()).toEqual([])
    const res = await use(s, token)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ person: { email }, start: '/family/' })
    const cookie = sessionCookie(res)!
    const family = await s.req('GET', '/api/admin/family', { cookie })
    expect(family.body.households.map((h: { id: number }) => h.id)).toEqual([household])
    const who = await s.req('GET', '/api/admin/whoami', { cookie })
    expect(who.body.capabilities).not.toContain('roster:write')
    expect(who.body.capabilities).not.toContain('messages:send')
    const memberships = await s.db
      .selectFrom('memberships')
      .select(['unit_id', 'role'])
      .where('person_id', '=', res.body.person.id)
      .execute()
    expect(memberships).toEqual([{ unit_id: 2, role: 'member' }])
    expect((await s.lastLog('people.join_link')).actor).toBe(email)
    expect((await s.lastLog('login.success')).summary).toBe('Signed in with a mailed link from 127.0.0.1')
    // One use.
    expect((await use(s, token)).status).toBe(410)
    // The next link signs in the same account; no second one is made.
    const again = await use(s, await mailedToken(email))
    expect(again.status).toBe(200)
    expect(again.body.person.id).toBe(res.body.person.id)
  })

  it("makes the second parent's own account on first use by the household's second_email; 410 once it changed", async () => {
    const first = uniqueEmail('firstparent')
    const second = uniqueEmail('secondparent')
    const household = await addHousehold(s.db, { unit: 'pack', email: first, second_email: second.toUpperCase() })
    const res = await use(s, await mailedToken(second))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ person: { email: second }, start: '/family/' })
    const family = await s.req('GET', '/api/admin/family', { cookie: sessionCookie(res)! })
    expect(family.body.households.map((h: { id: number }) => h.id)).toEqual([household])
    expect(family.body.households[0]).toMatchObject({ email: first, second_email: second.toUpperCase() })
    expect(await s.db.selectFrom('people').select('id').where('email', '=', first).execute()).toEqual([])
    // Checked again at use: a link to a second address the household no longer has is refused.
    const other = uniqueEmail('secondleaving')
    const changed = await addHousehold(s.db, { unit: 'pack', email: uniqueEmail('stays'), second_email: other })
    const token = await mailedToken(other)
    await s.db.updateTable('households').set({ second_email: null }).where('id', '=', changed).execute()
    expect((await use(s, token)).status).toBe(410)
    expect(await s.db.selectFrom('people').select('id').where('email', '=', other).execute()).toEqual([])
  })

  it('signs in a person who has a password; the password keeps working', async () => {
    const leader = await s.person(ROLES.packLeader)
    const res = await use(s, await mailedToken(leader.email))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ person: { id: leader.id, email: leader.email }, start: '/admin/' })
    expect(sessionCookie(res)).toBeDefined()
    expect((await s.req('POST', '/login', { json: { email: leader.email, password: PASSWORD } })).status).toBe(200)
  })

  it('still asks for the second factor: a ticket and no session, which a recovery code completes', async () => {
    const p = await s.as(ROLES.member)
    await s.confirm(p.cookie)
    const started = await s.req('POST', '/api/admin/account/totp', { cookie: p.cookie })
    const code = new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate()
    const confirmed = await s.req('POST', '/api/admin/account/totp/confirm', { cookie: p.cookie, json: { code } })
    expect(confirmed.status).toBe(200)
    const res = await use(s, await mailedToken(p.email))
    expect(res.status).toBe(200)
    expect(res.body.second_factor.methods).toEqual(['totp', 'recovery_code'])
    expect(sessionCookie(res)).toBeUndefined()
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`site_login_ticket=${res.body.second_factor.ticket};`))).toBe(true)
    const done = await s.req('POST', '/login/second-factor', {
      json: { ticket: res.body.second_factor.ticket, code: confirmed.body.recovery_codes[0] },
    })
    expect(done.status).toBe(200)
    expect(done.body.person.id).toBe(p.id)
  })

  it('refuses a link whose household was deactivated or changed address since it was mailed (410)', async () => {
    const email = uniqueEmail('leaving')
    const household = await addHousehold(s.db, { unit: 'pack', email })
    const token = await mailedToken(email)
    await s.db.updateTable('households').set({ active: 0 }).where('id', '=', household).execute()
    const res = await use(s, token)
    expect(res.status).toBe(410)
    expect(res.body.detail).toContain('no longer on the roster')
    await s.db
      .updateTable('households')
      .set({ active: 1, email: uniqueEmail('moved') })
      .where('id', '=', household)
      .execute()
    expect((await use(s, token)).status).toBe(410)
    expect(await s.db.selectFrom('people').select('id').where('email', '=', email).execute()).toEqual([])
  })

  it('refuses a person disabled after the link was mailed (403), and opens no session', async () => {
    const p = await s.person(ROLES.member)
    const token = await mailedToken(p.email)
    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', p.id).execute()
    const res = await use(s, token)
    expect(res.status).toBe(403)
    expect(sessionCookie(res)).toBeUndefined()
    expect((await linksTo(p.email))[0].used_at).toBeNull()
  })

  it('answers 404 for an unknown token and 410 for an expired link or one a newer ask replaced', async () => {
    expect((await use(s, 'no-such-token')).status).toBe(404)
    const p = await s.person(ROLES.member)
    const first = await mailedToken(p.email)
    const second = await mailedToken(p.email)
    expect(second).not.toBe(first)
    expect((await use(s, first)).status).toBe(410)
    await s.db
      .updateTable('login_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', p.email)
      .execute()
    expect((await use(s, second)).status).toBe(410)
  })
})

describe('keeping', () => {
  it('the nightly pass removes links spent more than 30 days ago, and keeps the rest', async () => {
    const p = await s.person(ROLES.member)
    await mailedToken(p.email)
    const open = await mailedToken(p.email)
    const [old] = await linksTo(p.email)
    await s.db
      .updateTable('login_links')
      .set({ revoked_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where('id', '=', old.id)
      .execute()
    expect((await pruneExpired(s.db)).login_links).toBe(1)
    expect((await linksTo(p.email)).map((l) => l.id)).not.toContain(old.id)
    expect((await use(s, open)).status).toBe(200)
  })
})

describe('limits, as for "Forgot your password?"', () => {
  it('past 3 asks an hour for one address mails nothing more and the last link keeps working; 10 from one client, then 429', () =>
    withServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }, async (srv) => {
      const p = await srv.person(ROLES.member)
      const before = relay.received.length
      for (let i = 0; i < 5; i++) expect((await ask(srv, p.email, null)).status).toBe(202)
      const mails = await relay.waitForCount(before + 3)
      const mine = mails.filter((m) => m.to.includes(p.email))
      expect(mine).toHaveLength(3)
      // The last mailed link still signs in: asks by others cannot lock the owner out.
      expect((await use(srv, tokenOf(mine[2]))).status).toBe(200)
      for (let i = 0; i < 5; i++) expect((await ask(srv, uniqueEmail('crowd'), null)).status).toBe(202)
      const refused = await ask(srv, uniqueEmail('eleventh'), null)
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      const form = await srv.req('POST', '/api/login-link', { form: { email: p.email } })
      expect(form.status).toBe(303)
      expect(form.headers.get('location')).toBe('/login/email-link/wait/')
      expect((await srv.db.selectFrom('mail_outbox').select('id').where('to_address', '=', p.email).execute()).length).toBe(3)
    }))

  it('without mail set up answers 202 with words saying so, and makes no link', () =>
    withServer({}, async (srv) => {
      const p = await srv.person(ROLES.member)
      const res = await ask(srv, p.email)
      expect(res.status).toBe(202)
      expect(res.body.detail).toContain('cannot send mail yet')
      expect(await srv.db.selectFrom('login_links').select('id').execute()).toEqual([])
    }))
})
