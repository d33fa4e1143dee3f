// A second factor: adding an authenticator app with computed TOTP codes, recovery codes, the sign-in ticket (five
// minutes, five tries, wrong codes counted as failed sign-ins), the setting that asks admins or leaders for one
// (14 days, then only the account page), and an owner removing someone's.
import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { Secret, TOTP } from 'otpauth'
import { ADMIN_TOKEN, PASSWORD, ROLES, startServer, type TestServer, uniqueEmail, withServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

/** The code an authenticator app shows for `secret` at `at` (now by default). */
const codeFor = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at })

/** A person with a confirmed authenticator app: their cookie, secret and recovery codes. */
async function withApp(srv: TestServer, spec: Parameters<TestServer['as']>[0] = ROLES.packLeader) {
  const p = await srv.as(spec)
  await srv.confirm(p.cookie)
  const started = await srv.req('POST', '/api/admin/account/totp', { cookie: p.cookie })
  expect(started.status).toBe(200)
  const secret: string = started.body.secret
  const usedCode = codeFor(secret)
  const confirmed = await srv.req('POST', '/api/admin/account/totp/confirm', { cookie: p.cookie, json: { code: usedCode } })
  expect(confirmed.status).toBe(200)
  return { ...p, secret, usedCode, recovery: confirmed.body.recovery_codes as string[] }
}

const login = (srv: TestServer, email: string, password = PASSWORD) => srv.req('POST', '/login', { json: { email, password } })
const second = (srv: TestServer, json: Record<string, unknown>) => srv.req('POST', '/login/second-factor', { json })

describe('POST /api/admin/account/totp and /confirm', () => {
  it('gives a secret and an otpauth URL; a code from the app confirms it (200) with ten recovery codes, shown once', async () => {
    const p = await s.as(ROLES.packLeader)
    await s.confirm(p.cookie)
    const started = await s.req('POST', '/api/admin/account/totp', { cookie: p.cookie })
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(started.body.otpauth_url).toStartWith('otpauth://totp/')
    expect(started.body.otpauth_url).toContain(`secret=${started.body.secret}`)
    expect((await s.req('POST', '/api/admin/account/totp/confirm', { cookie: p.cookie, json: { code: '000000' } })).status).toBe(422)
    const confirmed = await s.req('POST', '/api/admin/account/totp/confirm', {
      cookie: p.cookie,
      json: { code: codeFor(started.body.secret) },
    })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.recovery_codes.length).toBe(10)
    expect(new Set(confirmed.body.recovery_codes).size).toBe(10)
    for (const code of confirmed.body.recovery_codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/)
    const overview = await s.req('GET', '/api/admin/account/second-factor', { cookie: p.cookie })
    expect(overview.body).toMatchObject({ enrolled: true, recovery_codes_left: 10, passkeys: [] })
    expect(overview.body.totp.name).toBe('Authenticator app')
    // Only hashes are kept: no code appears in the database.
    const rows = JSON.stringify(await s.db.selectFrom('recovery_codes').selectAll().execute())
    for (const code of confirmed.body.recovery_codes) expect(rows).not.toContain(code)
    expect((await s.lastLog('account.totp_add')).actor).toBe(p.email)
    // A second app while one is confirmed: 409.
    expect((await s.req('POST', '/api/admin/account/totp', { cookie: p.cookie })).status).toBe(409)
  })

  it('answers 401 anonymous, 403 for a key (even one holding account:self) and the break-glass token', async () => {
    const p = await s.as(ROLES.packLeader)
    const { key } = await s.mintKey(p.cookie, ['account:self'])
    for (const path of ['/api/admin/account/totp', '/api/admin/account/totp/confirm', '/api/admin/account/passkeys/options']) {
      expect((await s.req('POST', path, { json: path.endsWith('confirm') ? { code: '123456' } : undefined })).status).toBe(401)
      expect((await s.req('POST', path, { key, json: path.endsWith('confirm') ? { code: '123456' } : undefined })).status).toBe(403)
      expect(
        (await s.req('POST', path, { token: ADMIN_TOKEN, json: path.endsWith('confirm') ? { code: '123456' } : undefined })).status,
      ).toBe(403)
    }
    expect((await s.req('GET', '/api/admin/account/second-factor', { key })).status).toBe(403)
  })
})

describe('signing in with a second factor', () => {
  it('answers the password with a ticket and no cookie; the code then signs in (200 with site_session), once', async () => {
    const p = await withApp(s)
    const first = await login(s, p.email)
    expect(first.status).toBe(200)
    expect(first.headers.get('set-cookie')).toBeNull()
    expect(first.body.second_factor.methods).toEqual(['totp', 'recovery_code'])
    expect(first.body.second_factor.passkey).toBeNull()
    const { ticket } = first.body.second_factor
    // The code just used to confirm the app cannot be used again: wait for the next step's code.
    const code = codeFor(p.secret, Date.now() + 30_000)
    const done = await second(s, { ticket, code })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ person: { id: p.id, email: p.email }, start: '/admin/' })
    const cookie = done.headers.get('set-cookie')!.split(';')[0]
    expect(cookie).toStartWith('site_session=')
    expect((await s.req('GET', '/api/admin/whoami', { cookie })).body.second_factor).toMatchObject({ enrolled: true, locked: false })
    expect((await second(s, { ticket, code })).status).toBe(410)
    expect((await s.lastLog('login.success')).summary).toContain('Signed in with an authenticator app from 127.0.0.1')
  })

  it('refuses a code used before, and lets each recovery code sign in once', async () => {
    const p = await withApp(s)
    const { ticket } = (await login(s, p.email)).body.second_factor
    expect((await second(s, { ticket, code: p.usedCode })).status).toBe(401)
    const withRecovery = await second(s, { ticket, code: p.recovery[0].toUpperCase() })
    expect(withRecovery.status).toBe(200)
    const again = (await login(s, p.email)).body.second_factor.ticket
    expect((await second(s, { ticket: again, code: p.recovery[0] })).status).toBe(401)
    const overview = await s.req('GET', '/api/admin/account/second-factor', {
      cookie: withRecovery.headers.get('set-cookie')!.split(';')[0],
    })
    expect(overview.body.recovery_codes_left).toBe(9)
  })

  it('kills a ticket after five wrong codes (then 410), and counts wrong codes as failed sign-ins', async () => {
    await withServer({}, async (local) => {
      const p = await withApp(local)
      // The clock stands still, so the slow-down's first wait (one second) has not passed when the password is tried.
      setSystemTime(new Date())
      const { ticket } = (await login(local, p.email)).body.second_factor
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push((await second(local, { ticket, code: '000000' })).status)
      expect(statuses).toEqual([401, 401, 401, 401, 401])
      expect((await second(local, { ticket, code: codeFor(p.secret, Date.now() + 30_000) })).status).toBe(410)
      const failures = await local.db.selectFrom('action_log').select('summary').where('kind', '=', 'login.failure').execute()
      expect(failures.filter((f) => f.summary.startsWith(`Wrong second factor for ${p.email}`)).length).toBe(5)
      // Five wrong codes for this email from this address: the password is slowed down now too.
      expect((await login(local, p.email)).status).toBe(429)
    }).finally(() => setSystemTime())
  })

  it('lets a ticket live five minutes', async () => {
    const p = await withApp(s)
    const { ticket } = (await login(s, p.email)).body.second_factor
    try {
      setSystemTime(new Date(Date.now() + 5 * 60_000 + 1000))
      expect((await second(s, { ticket, code: codeFor(p.secret) })).status).toBe(410)
    } finally {
      setSystemTime()
    }
  })

  it('answers 400 without a code or passkey (or with both), and without a ticket', async () => {
    const p = await withApp(s)
    const { ticket } = (await login(s, p.email)).body.second_factor
    expect((await second(s, { ticket })).status).toBe(400)
    expect((await second(s, { code: '123456' })).status).toBe(400)
    expect((await second(s, { ticket: 'not-a-ticket', code: '123456' })).status).toBe(410)
  })

  it('carries the ticket in a cookie for a form post (no JavaScript) and sends the browser on after the code', async () => {
    const p = await withApp(s)
    const first = await s.req('POST', '/login', { form: { email: p.email, password: PASSWORD, next: '/admin/roster/' } })
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toBe('/login/second-factor/?next=%2Fadmin%2Froster%2F')
    const ticketCookie = first.headers.get('set-cookie')!
    expect(ticketCookie).toMatch(/^site_login_ticket=[\w-]+; HttpOnly; SameSite=Strict; Path=\/login; Max-Age=300/)
    const done = await s.req('POST', '/login/second-factor', {
      form: { code: codeFor(p.secret, Date.now() + 30_000), next: '/admin/roster/' },
      cookie: ticketCookie.split(';')[0],
    })
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('/admin/roster/')
    const cookies = done.headers.getSetCookie()
    expect(cookies.some((c) => c.startsWith('site_session='))).toBe(true)
    expect(cookies.some((c) => c.startsWith('site_login_ticket=;'))).toBe(true)
  })

  it('leaves an account without a second factor signing in exactly as before', async () => {
    const p = await s.person(ROLES.packLeader)
    const res = await login(s, p.email)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ person: { id: p.id, email: p.email }, start: '/admin/' })
    expect(res.headers.get('set-cookie')).toStartWith('site_session=')
  })
})

describe('DELETE /api/admin/account/totp', () => {
  it('needs a current code or a recovery code (422 otherwise); the last factor takes the recovery codes with it', async () => {
    const p = await withApp(s)
    const remove = (code: string) => s.req('DELETE', '/api/admin/account/totp', { cookie: p.cookie, json: { code } })
    expect((await remove('111111')).status).toBe(422)
    expect((await remove(p.recovery[3])).status).toBe(200)
    expect((await s.req('GET', '/api/admin/account/second-factor', { cookie: p.cookie })).body).toMatchObject({
      enrolled: false,
      totp: null,
      recovery_codes_left: 0,
    })
    expect((await remove(p.recovery[4])).status).toBe(404)
    // Without a factor, signing in is back to the password alone.
    expect((await login(s, p.email)).body.start).toBe('/admin/')
  })
})

describe('POST /api/admin/account/recovery-codes', () => {
  it('makes ten new codes with your password (the old ones stop working); 422 wrong password, 409 without a factor', async () => {
    const p = await withApp(s)
    const make = (password: string, cookie = p.cookie) => s.req('POST', '/api/admin/account/recovery-codes', { cookie, json: { password } })
    expect((await make('not my password')).status).toBe(422)
    const fresh = await make(PASSWORD)
    expect(fresh.status).toBe(201)
    expect(fresh.body.recovery_codes.length).toBe(10)
    const { ticket } = (await login(s, p.email)).body.second_factor
    expect((await second(s, { ticket, code: p.recovery[0] })).status).toBe(401)
    expect((await second(s, { ticket, code: fresh.body.recovery_codes[0] })).status).toBe(200)
    const member = await s.as(ROLES.member)
    await s.confirm(member.cookie)
    expect((await make(PASSWORD, member.cookie)).status).toBe(409)
  })
})

describe('security.second_factor', () => {
  it('is optional by default; a key or the break-glass token may tighten it but only a signed-in person loosens it', async () => {
    await withServer({}, async (local) => {
      const owner = await local.as(ROLES.owner)
      const { key } = await local.mintKey(owner.cookie, ['settings:write'])
      const put = (value: string | null, auth: { key?: string; token?: string; cookie?: string }) =>
        local.req('PUT', '/api/admin/settings/security.second_factor', { ...auth, json: { value } })
      const listed = (await local.req('GET', '/api/admin/settings', { cookie: owner.cookie })).body.settings
      expect(listed.find((x: any) => x.key === 'security.second_factor')).toMatchObject({ value: 'optional', default: 'optional' })
      expect((await put('leaders', { key })).status).toBe(200)
      expect((await put('admins', { key })).status).toBe(403)
      expect((await put(null, { token: ADMIN_TOKEN })).status).toBe(403)
      expect((await put('admins', { cookie: owner.cookie })).status).toBe(200)
      expect((await put('everyone', { cookie: owner.cookie })).status).toBe(422)
    })
  })

  it('gives a person it asks 14 days with the deadline in whoami, then only the account page until they add one', async () => {
    await withServer({}, async (local) => {
      const owner = await local.as(ROLES.owner)
      const leader = await local.as(ROLES.packLeader)
      const member = await local.as(ROLES.member)
      expect(
        (await local.req('PUT', '/api/admin/settings/security.second_factor', { cookie: owner.cookie, json: { value: 'leaders' } })).status,
      ).toBe(200)
      const me = async (cookie: string) => (await local.req('GET', '/api/admin/whoami', { cookie })).body.second_factor
      const due = (await me(leader.cookie)).due_at
      expect(Date.parse(due) - Date.now()).toBeGreaterThan(13.9 * 86_400_000)
      expect(await me(leader.cookie)).toMatchObject({ required: true, enrolled: false, locked: false })
      expect(await me(member.cookie)).toMatchObject({ required: false, due_at: null, locked: false })
      expect((await local.req('GET', '/api/admin/leads', { cookie: leader.cookie })).status).toBe(200)
      try {
        setSystemTime(new Date(Date.parse(due) + 1000))
        expect(await me(leader.cookie)).toMatchObject({ locked: true })
        const refused = await local.req('GET', '/api/admin/leads', { cookie: leader.cookie })
        expect(refused.status).toBe(403)
        expect(refused.body.detail).toContain('second factor')
        expect((await local.req('GET', '/api/admin/family', { cookie: leader.cookie })).status).toBe(403)
        expect((await local.req('GET', '/api/admin/account/sessions', { cookie: leader.cookie })).status).toBe(200)
        expect((await local.req('GET', '/api/admin/whoami', { cookie: leader.cookie })).body.capabilities).toEqual(['account:self'])
        // The member is not asked, and keeps everything.
        expect((await local.req('GET', '/api/admin/family', { cookie: member.cookie })).status).toBe(200)
        // Adding an app opens everything again.
        await local.confirm(leader.cookie)
        const started = await local.req('POST', '/api/admin/account/totp', { cookie: leader.cookie })
        const confirmed = await local.req('POST', '/api/admin/account/totp/confirm', {
          cookie: leader.cookie,
          json: { code: codeFor(started.body.secret) },
        })
        expect(confirmed.status).toBe(200)
        expect((await local.req('GET', '/api/admin/leads', { cookie: leader.cookie })).status).toBe(200)
      } finally {
        setSystemTime()
      }
    })
  })

  it('starts the 14 days when a roles change makes someone asked, and stops asking when it no longer does', async () => {
    await withServer({}, async (local) => {
      const owner = await local.as(ROLES.owner)
      await local.req('PUT', '/api/admin/settings/security.second_factor', { cookie: owner.cookie, json: { value: 'admins' } })
      const person = await local.as(ROLES.member)
      const asked = async () =>
        (await local.db.selectFrom('people').select('second_factor_asked_since').where('id', '=', person.id).executeTakeFirstOrThrow())
          .second_factor_asked_since
      expect(await asked()).toBeNull()
      await local.req('PUT', `/api/admin/people/${person.id}/roles`, { cookie: owner.cookie, json: { global_role: 'admin', units: [] } })
      expect(Date.parse((await asked())!)).toBeGreaterThan(Date.now() - 60_000)
      await local.req('PUT', `/api/admin/people/${person.id}/roles`, { cookie: owner.cookie, json: { global_role: null, units: [] } })
      expect(await asked()).toBeNull()
      // A new account made while the setting asks its role is asked from its first day.
      const invite = await local.req('POST', '/api/admin/people/invite', {
        cookie: owner.cookie,
        json: { email: uniqueEmail(), global_role: 'admin' },
      })
      const accepted = await local.req('POST', `/api/invite/${invite.body.url.split('/invite/')[1]}`, {
        json: { password: 'a good long password' },
      })
      expect(accepted.status).toBe(201)
      const row = await local.db
        .selectFrom('people')
        .select('second_factor_asked_since')
        .where('id', '=', accepted.body.id)
        .executeTakeFirstOrThrow()
      expect(row.second_factor_asked_since).not.toBeNull()
    })
  })
})

describe('DELETE /api/admin/people/:id/second-factor', () => {
  it('lets an owner remove a person’s factors (logged); a reset link leaves them; admins and keys may not (403)', async () => {
    const owner = await s.as(ROLES.owner)
    const admin = await s.as(ROLES.admin)
    const p = await withApp(s)
    // An owner's reset link sets the password only: the factor stays.
    const reset = await s.req('POST', `/api/admin/people/${p.id}/reset`, { cookie: owner.cookie })
    expect(
      (await s.req('POST', `/api/reset/${reset.body.url.split('/reset/')[1]}`, { json: { password: 'a new long password' } })).status,
    ).toBe(200)
    expect((await login(s, p.email, 'a new long password')).body.second_factor).toBeDefined()
    expect((await s.req('DELETE', `/api/admin/people/${p.id}/second-factor`, { cookie: admin.cookie })).status).toBe(403)
    const removed = await s.req('DELETE', `/api/admin/people/${p.id}/second-factor`, { cookie: owner.cookie })
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ id: p.id, email: p.email, removed: 1 })
    expect((await s.lastLog('people.second_factor_remove')).actor).toBe(owner.email)
    expect((await login(s, p.email, 'a new long password')).body.start).toBe('/admin/')
    expect(await s.db.selectFrom('recovery_codes').select('id').where('person_id', '=', p.id).execute()).toEqual([])
    expect((await s.req('DELETE', '/api/admin/people/999999/second-factor', { cookie: owner.cookie })).status).toBe(404)
  })
})

describe('passkey routes without a browser', () => {
  it('refuses a made-up registration (422) and an unknown passkey at sign-in (401); 404 for someone else’s passkey', async () => {
    const p = await s.as(ROLES.packLeader)
    await s.confirm(p.cookie)
    const options = await s.req('POST', '/api/admin/account/passkeys/options', { cookie: p.cookie })
    expect(options.status).toBe(200)
    expect(options.body.rp.id).toBe('127.0.0.1')
    const fake = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
      clientExtensionResults: {},
    }
    expect((await s.req('POST', '/api/admin/account/passkeys', { cookie: p.cookie, json: { name: 'Phone', response: fake } })).status).toBe(
      422,
    )
    const start = await s.req('POST', '/login/passkey/options', {})
    expect(start.status).toBe(200)
    expect(start.body.options.userVerification).toBe('required')
    const assertion = { ...fake, response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' } }
    expect((await s.req('POST', '/login/passkey', { json: { ticket: start.body.ticket, response: assertion } })).status).toBe(401)
    expect((await s.req('DELETE', '/api/admin/account/passkeys/999999', { cookie: p.cookie, json: { password: PASSWORD } })).status).toBe(
      404,
    )
  })
})

describe('checking a password or a code again on the account page', () => {
  it('slows down and logs wrong passwords there, as at sign-in: a key holding account:self cannot guess it', async () => {
    await withServer({}, async (local) => {
      setSystemTime(new Date())
      try {
        const p = await local.as(ROLES.packLeader)
        const { key } = await local.mintKey(p.cookie, ['account:self'])
        const statuses = []
        for (let i = 0; i < 8; i++)
          statuses.push(
            (
              await local.req('POST', '/api/admin/account/password', {
                key,
                json: { current_password: `guess-${i}`, new_password: 'new password 123' },
              })
            ).status,
          )
        expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429, 429])
        const logged = await local.db.selectFrom('action_log').select('summary').where('kind', '=', 'login.failure').execute()
        expect(logged.filter((e) => e.summary.startsWith(`Wrong current password when changing it for ${p.email}`)).length).toBe(5)
        // The same count covers signing in, so the real password waits too now.
        expect((await login(local, p.email)).status).toBe(429)
      } finally {
        setSystemTime()
      }
    })
  })

  it('slows down and logs wrong codes when removing the authenticator app', async () => {
    await withServer({}, async (local) => {
      setSystemTime(new Date())
      try {
        const p = await withApp(local)
        const statuses = []
        for (let i = 0; i < 7; i++)
          statuses.push(
            (await local.req('DELETE', '/api/admin/account/totp', { cookie: p.cookie, json: { code: String(100000 + i) } })).status,
          )
        expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429])
        const logged = await local.db.selectFrom('action_log').select('summary').where('kind', '=', 'login.failure').execute()
        expect(logged.filter((e) => e.summary.startsWith('Wrong code to remove the authenticator app')).length).toBe(5)
      } finally {
        setSystemTime()
      }
    })
  })
})

describe('security.second_factor changed by hand in the database', () => {
  it('asks a person from their next request within 10 s, and stops asking when it is set back', async () => {
    await withServer({}, async (local) => {
      const leader = await local.as(ROLES.packLeader)
      const me = async () => (await local.req('GET', '/api/admin/whoami', { cookie: leader.cookie })).body.second_factor
      expect((await me()).required).toBe(false)
      const byHand = (value: string) =>
        local.db
          .insertInto('settings')
          .values({ key: 'security.second_factor', value: JSON.stringify(value), updated_at: new Date().toISOString() })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
          .execute()
      await byHand('leaders')
      const start = Date.now()
      try {
        setSystemTime(new Date(start + 11_000))
        const asked = await me()
        expect(asked).toMatchObject({ required: true, locked: false })
        expect(Date.parse(asked.due_at)).toBeGreaterThan(Date.now() + 13 * 86_400_000)
        // Long past the deadline, then set back to optional by hand: nothing is asked any more.
        setSystemTime(new Date(start + 20 * 86_400_000))
        expect((await me()).locked).toBe(true)
        await byHand('optional')
        setSystemTime(new Date(start + 20 * 86_400_000 + 11_000))
        expect(await me()).toMatchObject({ required: false, locked: false })
        expect((await local.req('GET', '/api/admin/leads', { cookie: leader.cookie })).status).toBe(200)
      } finally {
        setSystemTime()
      }
    })
  })
})
