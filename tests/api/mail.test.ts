// Mail through a real SMTP relay on loopback: invite, reset and forgot-password links that arrive and work, the
// outbox's retries (4xx, the relay down), a 5xx, mail.per_minute, the health check, and nothing mailed unasked.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, eventually, freePort, ROLES, startServer, type TestServer, uniqueEmail, withServer } from '../helpers.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'

let relay: TestRelay
let s: TestServer
let owner: { id: number; cookie: string }
beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }, { mailRetryMs: 200 })
  owner = await s.as(ROLES.owner)
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const path = (url: string) => new URL(url).pathname
const outboxTo = (to: string) => s.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute()
const invite = (email: string, extra: Record<string, unknown> = { send_email: true }) =>
  s.req('POST', '/api/admin/people/invite', { cookie: owner.cookie, json: { email, global_role: 'admin', ...extra } })

describe('POST /api/admin/people/invite with send_email', () => {
  it('mails the link to the person alone, from MAIL_FROM, as text and HTML; the link makes the account', async () => {
    const email = uniqueEmail('invited')
    const res = await invite(email)
    expect(res.status).toBe(201)
    expect(res.body.emailed).toBe(true)
    expect(res.body.url).toStartWith('http://127.0.0.1:1/invite/')
    const mail = await relay.waitFor(email)
    expect(mail.to).toEqual([email])
    expect(mail.parsed.from?.text).toBe('"Pack 123" <pack123@example.org>')
    expect(mail.subject).toBe('Your invitation to Pack & Troop')
    const link = linkIn(mail, 'http://127.0.0.1:1/invite/')
    expect(link).toBe(res.body.url)
    expect(mail.html).toContain(`href="${link}"`)
    expect(mail.text).toContain('invited you to Pack & Troop as admin.')
    expect(mail.messageId).toMatch(/^<outbox-\d+-\d+@example\.org>$/)
    const accepted = await s.req('POST', `/api/invite/${path(link).split('/').pop()}`, { json: { password: 'a long new password' } })
    expect(accepted.status).toBe(201)
    expect((await s.lastLog('people.invite')).summary).toBe(`Invited ${email} as admin, by email`)
  })

  it('says what an account without roles is for, never "as no roles"', async () => {
    const email = uniqueEmail('no-roles')
    expect((await invite(email, { global_role: null, send_email: true })).status).toBe(201)
    const mail = await relay.waitFor(email)
    expect(mail.text).not.toContain('no roles')
    expect(mail.text).toContain('invited you to Pack & Troop.')
    expect(mail.text).toContain('Your account opens your family page')
    const household = await s.req('POST', '/api/admin/roster/households', {
      cookie: owner.cookie,
      json: { parent_name: 'Robin Vale', email: uniqueEmail('vale-household') },
    })
    expect(household.status).toBe(201)
    const linked = uniqueEmail('linked')
    expect((await invite(linked, { global_role: null, household_id: household.body.id, send_email: true })).status).toBe(201)
    expect((await relay.waitFor(linked)).text).toContain("Your account opens the family page of Robin Vale's household")
  })

  it('keeps no copy of the link once the mail has gone', async () => {
    const email = uniqueEmail('forgotten')
    await invite(email)
    await relay.waitFor(email)
    await eventually(async () => (await outboxTo(email))[0]?.state === 'sent')
    const [row] = await outboxTo(email)
    expect(row).toMatchObject({ kind: 'invite', state: 'sent', text_body: '', html_body: '', attempts: 1, error: null })
  })

  it('answers 429 to mailing a link to the same address again within minutes (a double tap kills the first link)', async () => {
    const email = uniqueEmail('twice')
    expect((await invite(email)).status).toBe(201)
    const again = await invite(email)
    expect(again.status).toBe(429)
    expect(again.body.detail).toContain('a few minutes ago')
    expect(await s.db.selectFrom('invites').select('id').where('email', '=', email).execute()).toHaveLength(1)
    // Showing a new link without mailing it is still possible.
    expect((await invite(email, {})).status).toBe(201)
  })

  it('mails nothing without send_email (emailed: false), as the spec says', async () => {
    const email = uniqueEmail('quiet')
    const res = await invite(email, {})
    expect(res.status).toBe(201)
    expect(res.body.emailed).toBe(false)
    expect(await outboxTo(email)).toEqual([])
  })
})

describe('POST /api/admin/people/:id/reset with send_email', () => {
  it('mails a link that sets the password; without send_email nothing is mailed', async () => {
    const leader = await s.person(ROLES.packLeader)
    const quiet = await s.req('POST', `/api/admin/people/${leader.id}/reset`, { cookie: owner.cookie })
    expect(quiet.status).toBe(201)
    expect(quiet.body.emailed).toBe(false)
    expect(await outboxTo(leader.email)).toEqual([])
    const res = await s.req('POST', `/api/admin/people/${leader.id}/reset`, { cookie: owner.cookie, json: { send_email: true } })
    expect(res.status).toBe(201)
    expect(res.body.emailed).toBe(true)
    const mail = await relay.waitFor(leader.email)
    expect(mail.subject).toBe('A new password for Pack & Troop')
    const link = linkIn(mail, 'http://127.0.0.1:1/reset/')
    expect(link).toBe(res.body.url)
    const used = await s.req('POST', `/api/reset/${link.split('/').pop()}`, { json: { password: 'a fresh long password' } })
    expect(used.status).toBe(200)
    expect((await s.req('POST', '/login', { json: { email: leader.email, password: 'a fresh long password' } })).status).toBe(200)
  })
})

describe('send_email while mail is not set up', () => {
  it('answers 409 and makes no link', () =>
    withServer({}, async (plain) => {
      const boss = await plain.as(ROLES.owner)
      const email = uniqueEmail('nomail')
      const res = await plain.req('POST', '/api/admin/people/invite', { cookie: boss.cookie, json: { email, send_email: true } })
      expect(res.status).toBe(409)
      expect(res.body.detail).toContain('SMTP_URL')
      expect(await plain.db.selectFrom('invites').select('id').where('email', '=', email).execute()).toEqual([])
      const member = await plain.person(ROLES.member)
      const reset = await plain.req('POST', `/api/admin/people/${member.id}/reset`, { cookie: boss.cookie, json: { send_email: true } })
      expect(reset.status).toBe(409)
      expect(await plain.db.selectFrom('reset_links').select('id').where('person_id', '=', member.id).execute()).toEqual([])
    }))
})

describe('POST /api/forgot', () => {
  it('answers 202 with the same words for an unknown, a disabled and a real account, and mails only the real one', async () => {
    const real = await s.person(ROLES.member)
    const disabled = await s.person(ROLES.member)
    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', disabled.id).execute()
    const answers = []
    for (const email of [uniqueEmail('nobody'), disabled.email, real.email.toUpperCase()])
      answers.push(await s.req('POST', '/api/forgot', { json: { email } }))
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202])
    expect(new Set(answers.map((a) => a.text)).size).toBe(1)
    const mail = await relay.waitFor(real.email)
    expect(mail.text).toContain('Someone, probably you, asked for a new password')
    const link = linkIn(mail, 'http://127.0.0.1:1/reset/')
    expect(await outboxTo(disabled.email)).toEqual([])
    // The entry names the address the ask came from, not the person: anyone may ask for anyone.
    const log = await s.lastLog('people.forgot')
    expect(log).toMatchObject({
      actor: 'anonymous',
      summary: `A reset link for ${real.email} was asked for on the sign-in page, from 127.0.0.1`,
    })
    const used = await s.req('POST', `/api/reset/${link.split('/').pop()}`, { json: { password: 'remembered at last' } })
    expect(used.status).toBe(200)
    expect((await s.req('POST', '/login', { json: { email: real.email, password: 'remembered at last' } })).status).toBe(200)
    // The link's expiry is an hour, not a leader's 24.
    const row = await s.db.selectFrom('reset_links').selectAll().where('person_id', '=', real.id).executeTakeFirstOrThrow()
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(3_600_000)
    expect(row.asked_by_self).toBe(1)
    // It is not retried past its link's life, and goes before other mail.
    const [sent] = await outboxTo(real.email)
    expect(sent).toMatchObject({ kind: 'forgot', priority: 0, give_up_at: row.expires_at })
  })

  it("leaves open a reset link a leader gave: a stranger's ask closes only the links asked for before", async () => {
    const member = await s.person(ROLES.member)
    const given = await s.req('POST', `/api/admin/people/${member.id}/reset`, { cookie: owner.cookie })
    await s.req('POST', '/api/forgot', { json: { email: member.email } })
    await relay.waitFor(member.email)
    const used = await s.req('POST', `/api/reset/${given.body.url.split('/').pop()}`, { json: { password: 'from the leader' } })
    expect(used.status).toBe(200)
  })

  it('closes the link a person asked for when they are disabled (410)', async () => {
    const member = await s.person(ROLES.member)
    await s.req('POST', '/api/forgot', { json: { email: member.email } })
    const link = linkIn(await relay.waitFor(member.email), 'http://127.0.0.1:1/reset/')
    expect((await s.req('POST', `/api/admin/people/${member.id}/disable`, { cookie: owner.cookie })).status).toBe(200)
    expect((await s.req('POST', `/api/reset/${link.split('/').pop()}`, { json: { password: 'too late for this' } })).status).toBe(410)
  })

  it('answers a form post with 303 to the page that says what happens, and refuses a bad address with 422', async () => {
    const form = await s.req('POST', '/api/forgot', { form: { email: uniqueEmail('form') } })
    expect(form.status).toBe(303)
    expect(form.headers.get('location')).toBe('/login/forgot/sent/')
    expect((await s.req('POST', '/api/forgot', { json: { email: 'not an address' } })).status).toBe(422)
  })

  it('mails 3 asks an hour for one email, then answers the same and sends nothing, the last link still working', () =>
    withServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>', TRUST_PROXY: '127.0.0.1/32' }, async (plain) => {
      const member = await plain.person(ROLES.member)
      const from = (address: string) => ({ headers: { 'x-forwarded-for': address } })
      const asks = []
      for (let i = 0; i < 3; i++)
        asks.push(await plain.req('POST', '/api/forgot', { json: { email: member.email }, ...from(`192.0.2.${i}`) }))
      // Someone elsewhere asks again and again: the same answer, no mail, and never a 429 for the email.
      asks.push(await plain.req('POST', '/api/forgot', { json: { email: member.email.toUpperCase() }, ...from('198.51.100.9') }))
      asks.push(await plain.req('POST', '/api/forgot', { json: { email: member.email }, ...from('198.51.100.10') }))
      expect(asks.map((a) => a.status)).toEqual([202, 202, 202, 202, 202])
      expect(new Set(asks.map((a) => a.text)).size).toBe(1)
      const form = await plain.req('POST', '/api/forgot', { form: { email: member.email }, ...from('198.51.100.11') })
      expect(form.status).toBe(303)
      expect(form.headers.get('location')).toBe('/login/forgot/sent/')
      await eventually(async () => relay.received.filter((m) => m.to.includes(member.email)).length >= 3)
      await Bun.sleep(300)
      const rows = await plain.db.selectFrom('mail_outbox').select('id').where('to_address', '=', member.email).execute()
      expect(rows.length).toBe(3)
      // Each link closes the ones asked for before it; the last one sent works.
      const tokens = relay.received
        .filter((m) => m.to.includes(member.email))
        .map((m) => linkIn(m, 'http://127.0.0.1:1/reset/').split('/').pop()!)
      const open = []
      for (const token of tokens) if ((await plain.req('GET', `/api/reset/${token}`)).status === 200) open.push(token)
      expect(open.length).toBe(1)
      expect((await plain.req('POST', `/api/reset/${open[0]}`, { json: { password: 'mine after all' } })).status).toBe(200)
    }))

  it('takes 10 asks an hour from one address, then 429 (a form post: the page saying so)', () =>
    withServer({}, async (plain) => {
      for (let i = 0; i < 10; i++)
        expect((await plain.req('POST', '/api/forgot', { json: { email: uniqueEmail('other') } })).status).toBe(202)
      const slowed = await plain.req('POST', '/api/forgot', { json: { email: uniqueEmail('other') } })
      expect(slowed.status).toBe(429)
      expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(3000)
      const form = await plain.req('POST', '/api/forgot', { form: { email: uniqueEmail('other') } })
      expect(form.status).toBe(303)
      expect(form.headers.get('location')).toBe('/login/forgot/wait/')
    }))

  it('says to ask a leader when the site cannot send mail', () =>
    withServer({}, async (plain) => {
      const res = await plain.req('POST', '/api/forgot', { json: { email: uniqueEmail('x') } })
      expect(res.status).toBe(202)
      expect(res.body.detail).toContain('ask a leader')
    }))
})

describe('new-lead alerts (POST /api/join)', () => {
  it("mails each leader of the unit asked about who has not turned it off, naming nobody; 'unsure' reaches both units", async () => {
    const packLeader = await s.as(ROLES.packLeader)
    const quietLeader = await s.as(ROLES.packLeader)
    const troopLeader = await s.as(ROLES.troopLeader)
    const off = await s.req('PUT', '/api/admin/account/mail', { cookie: quietLeader.cookie, json: { lead_alerts: false } })
    expect(off.body).toEqual({ lead_alerts: false, leads_a_unit: true })
    expect((await s.lastLog('account.mail')).summary).toBe('Turned off the mails about new leads')
    const before = (await s.db.selectFrom('mail_outbox').select('id').where('kind', '=', 'lead_alert').execute()).length
    const join = await s.req('POST', '/api/join', {
      json: { parent_name: 'Robin Private', email: 'robin.private@example.org', unit: 'pack' },
    })
    expect(join.status).toBe(201)
    const mail = await relay.waitFor(packLeader.email)
    expect(mail.subject).toBe('A new family sent the join form')
    expect(linkIn(mail, 'http://127.0.0.1:1/admin/')).toBe('http://127.0.0.1:1/admin/leads/')
    expect(mail.text).not.toContain('Robin')
    expect(mail.text).not.toContain('robin.private')
    const queued = await s.db.selectFrom('mail_outbox').select('to_address').where('kind', '=', 'lead_alert').orderBy('id').execute()
    const thisLead = queued.slice(before).map((r) => r.to_address)
    expect(thisLead).toContain(packLeader.email)
    expect(thisLead).not.toContain(quietLeader.email)
    expect(thisLead).not.toContain(troopLeader.email)
    // The owner leads no unit: no alert.
    const ownerEmail = (await s.db.selectFrom('people').select('email').where('id', '=', owner.id).executeTakeFirstOrThrow()).email
    expect(thisLead).not.toContain(ownerEmail)

    expect((await s.req('POST', '/api/join', { json: { parent_name: 'Sam Unsure', phone: '555 0100 222' } })).status).toBe(201)
    await relay.waitFor(troopLeader.email)
    expect(await outboxTo(quietLeader.email)).toEqual([])
    // One alert a leader in ten minutes: the pack leader heard of the first family and is not mailed again.
    expect(await outboxTo(packLeader.email)).toHaveLength(1)
  })

  it('a member has no lead alerts to turn on; saying the same again changes nothing', async () => {
    const member = await s.as(ROLES.member)
    expect((await s.req('GET', '/api/admin/account/mail', { cookie: member.cookie })).body).toEqual({
      lead_alerts: true,
      leads_a_unit: false,
    })
    const leader = await s.as(ROLES.troopLeader)
    const before = (await s.lastLog('account.mail')).id
    expect((await s.req('PUT', '/api/admin/account/mail', { cookie: leader.cookie, json: { lead_alerts: true } })).status).toBe(200)
    expect((await s.lastLog('account.mail')).id).toBe(before)
    expect((await s.req('PUT', '/api/admin/account/mail', { token: ADMIN_TOKEN, json: { lead_alerts: true } })).status).toBe(403)
  })

  it('queues nothing when mail is not set up', () =>
    withServer({}, async (plain) => {
      await plain.person(ROLES.packLeader)
      expect(
        (await plain.req('POST', '/api/join', { json: { parent_name: 'No Mail', email: 'x@example.org', unit: 'pack' } })).status,
      ).toBe(201)
      expect(await plain.db.selectFrom('mail_outbox').select('id').execute()).toEqual([])
    }))
})

describe('the outbox', () => {
  it('retries a relay that answers 4xx, then delivers once; a 5xx is failed with the relay answer and never retried', async () => {
    const later = uniqueEmail('later')
    relay.answerNext({ code: 451, message: 'Greylisted, try again later' })
    await invite(later)
    const mail = await relay.waitFor(later)
    expect(relay.received.filter((m) => m.to.includes(later))).toHaveLength(1)
    await eventually(async () => (await outboxTo(later))[0].state === 'sent')
    const [row] = await outboxTo(later)
    // The relay's 451 came after the final dot: an answer, so the first attempt left no copy and no repeat is counted.
    expect(row).toMatchObject({ state: 'sent', attempts: 2, error: null, handed_at: null, maybe_sent: 0 })
    expect(mail.messageId).toBe(`<outbox-${row.id}-${Date.parse(row.created_at)}@example.org>`)

    const refused = uniqueEmail('refused')
    relay.answerNext({ code: 550, message: 'No such mailbox here' })
    await invite(refused)
    await eventually(async () => (await outboxTo(refused))[0]?.state === 'failed')
    const [failed] = await outboxTo(refused)
    expect(failed.error).toContain('550 No such mailbox here')
    expect(failed.attempts).toBe(1)
    // A failed row is final: a later wake of the sender leaves it alone.
    const next = uniqueEmail('after')
    await invite(next)
    await relay.waitFor(next)
    expect((await outboxTo(refused))[0]).toMatchObject({ state: 'failed', attempts: 1 })
  })

  it('waits while the relay is down (health says so), then delivers when it is back', async () => {
    const port = await freePort()
    const down = await startServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'troop@example.org' }, { mailRetryMs: 100 })
    let late: TestRelay | null = null
    try {
      const boss = await down.as(ROLES.owner)
      const email = uniqueEmail('waiting')
      expect((await down.req('POST', '/api/admin/people/invite', { cookie: boss.cookie, json: { email, send_email: true } })).status).toBe(
        201,
      )
      await eventually(async () => {
        const [row] = await down.db.selectFrom('mail_outbox').selectAll().execute()
        return row?.state === 'queued' && (row.error ?? '').includes('ECONNREFUSED')
      })
      // (The whole answer is 503 here: a test server builds no site. Mail is an optional check.)
      const sick = await down.req('GET', '/healthz')
      expect(sick.body.checks.mail).toMatchObject({ ok: false, required: false, configured: true, queued: 1, last_sent_at: null })
      expect(sick.body.checks.mail.error).toContain('mail waits')
      late = await startRelay(port)
      await late.waitFor(email)
      await eventually(async () => (await down.req('GET', '/healthz')).body.checks.mail.ok === true)
      const well = (await down.req('GET', '/healthz')).body.checks.mail
      expect(well).toMatchObject({ configured: true, queued: 0 })
      expect(well.last_sent_at).not.toBeNull()
    } finally {
      await down.stop()
      await late?.close()
    }
  })

  it('hands the relay no more than mail.per_minute mails in a minute; the rest wait their turn', async () => {
    const own = await startRelay()
    const paced = await startServer({ SMTP_URL: own.url, MAIL_FROM: 'pack@example.org' })
    try {
      const boss = await paced.as(ROLES.owner)
      expect((await paced.req('PUT', '/api/admin/settings/mail.per_minute', { cookie: boss.cookie, json: { value: 2 } })).status).toBe(200)
      const emails = [uniqueEmail('p1'), uniqueEmail('p2'), uniqueEmail('p3')]
      for (const email of emails)
        expect(
          (await paced.req('POST', '/api/admin/people/invite', { cookie: boss.cookie, json: { email, send_email: true } })).status,
        ).toBe(201)
      await own.waitForCount(2)
      const third = await paced.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', emails[2]).executeTakeFirstOrThrow()
      expect(third).toMatchObject({ state: 'queued', attempts: 0 })
      expect(own.received).toHaveLength(2)
    } finally {
      await paced.stop()
      await own.close()
    }
  })

  it('sends mail someone waits for (a link) before other mail already queued', async () => {
    const own = await startRelay()
    const busy = await startServer({ SMTP_URL: own.url, MAIL_FROM: 'pack@example.org' })
    try {
      const leaders = [await busy.person(ROLES.packLeader), await busy.person(ROLES.packLeader)]
      const member = await busy.person(ROLES.member)
      own.answerNext('hold')
      expect((await busy.req('POST', '/api/join', { json: { parent_name: 'A Family', phone: '555 0100 444', unit: 'pack' } })).status).toBe(
        201,
      )
      await own.held()
      await busy.req('POST', '/api/forgot', { json: { email: member.email } })
      await eventually(
        async () => (await busy.db.selectFrom('mail_outbox').select('id').where('kind', '=', 'forgot').execute()).length === 1,
      )
      own.release(true)
      await own.waitForCount(3)
      const order = own.received.map((m) => m.to[0])
      expect(order[1]).toBe(member.email)
      expect([order[0], order[2]].sort()).toEqual(leaders.map((l) => l.email).sort())
    } finally {
      await busy.stop()
      await own.close()
    }
  })

  it('gives the counts and times of the mail check only to the LAN: a stranger cannot see a reset link go out', async () => {
    const own = await startRelay()
    const open = await startServer({ SMTP_URL: own.url, MAIL_FROM: 'pack@example.org', LAN_CIDRS: '10.0.0.0/8' })
    try {
      const member = await open.person(ROLES.member)
      const before = (await open.req('GET', '/healthz')).body.checks.mail
      expect(before).toEqual({ ok: true, required: false, configured: true, warning: expect.stringContaining('https') })
      await open.req('POST', '/api/forgot', { json: { email: member.email } })
      await own.waitFor(member.email)
      expect((await open.req('GET', '/healthz')).body.checks.mail).toEqual(before)
    } finally {
      await open.stop()
      await own.close()
    }
  })

  it('says on /healthz that mail providers need an https unsubscribe link while PUBLIC_BASE_URL is not https', async () => {
    const http = (await s.req('GET', '/healthz')).body.checks.mail
    expect(http.warning).toBe('Mail providers need an https unsubscribe link: set PUBLIC_BASE_URL to the https address of the site')
    await withServer(
      { SMTP_URL: relay.url, MAIL_FROM: 'pack123@example.org', PUBLIC_BASE_URL: 'https://pack.example.org' },
      async (secure) => expect((await secure.req('GET', '/healthz')).body.checks.mail.warning).toBeUndefined(),
    )
    await withServer({}, async (plain) => expect((await plain.req('GET', '/healthz')).body.checks.mail.warning).toBeUndefined())
  })

  it('reports mail as not configured on /healthz without SMTP_URL', () =>
    withServer({}, async (plain) => {
      const res = await plain.req('GET', '/healthz')
      expect(res.body.checks.mail).toEqual({
        ok: true,
        required: false,
        configured: false,
        queued: 0,
        last_sent_at: null,
        last_failed_at: null,
        possible_repeats: 0,
      })
    }))
})
