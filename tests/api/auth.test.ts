// Sign-in, sign-out, sessions, the CSRF rule and the sign-in slow-down, over a real port.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { PASSWORD, ROLES, startServer, type TestServer, withServer } from '../helpers.ts'
import { NO_HIDDEN_CHARACTERS } from '../../server/schemas.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

const history = async (kind: string) => {
  const owner = await s.as(ROLES.owner)
  return (await s.req('GET', `/api/admin/history?kind=${kind}&limit=500`, { cookie: owner.cookie })).body.entries as any[]
}

describe('POST /login', () => {
  it('answers 200 with a HttpOnly SameSite=Lax site_session cookie for JSON', async () => {
    const p = await s.person(ROLES.member)
    const res = await s.req('POST', '/login', { json: { email: p.email, password: PASSWORD } })
    expect(res.status).toBe(200)
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toMatch(/^site_session=[\w-]{40,};/)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain('Path=/')
    expect(cookie).not.toContain('Secure')
  })

  it('refuses control, line-separator, format and invisible characters in the email (422) before anything is logged', async () => {
    const before = await s.db.selectFrom('action_log').select('id').where('kind', '=', 'login.failure').execute()
    for (const email of [
      'evil\u2028@example.org',
      'admin@example.org\u202Egro.live',
      'a\u0000b@example.org',
      'x\u200Fy@example.org',
      'line\nbreak@example.org',
      'c1\u0085@example.org',
      // Format and other invisible characters, as an invite refuses them: soft hyphen, invisible plus, Mongolian
      // vowel separator, a variation selector, a Hangul filler, a tag character.
      'soft\u00ADhyphen@example.org',
      'a\u2064b@example.org',
      'a\u180Eb@example.org',
      'a\uFE0Fb@example.org',
      'a\u3164b@example.org',
      'a\u{E0041}b@example.org',
    ]) {
      const res = await s.req('POST', '/login', { json: { email, password: 'whatever-it-is' } })
      expect(res.status, JSON.stringify(email)).toBe(422)
      expect(res.body.detail).toBe('email: must not hold control, format or other invisible characters')
    }
    const after = await s.db.selectFrom('action_log').select('id').where('kind', '=', 'login.failure').execute()
    expect(after.length).toBe(before.length)
  })

  it('refuses every control, format and default-ignorable character in a sign-in email, and nothing visible', () => {
    const pattern = new RegExp(NO_HIDDEN_CHARACTERS)
    const hidden = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u
    const wrong: string[] = []
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue
      const char = String.fromCodePoint(cp)
      if (pattern.test(`a${char}b@example.org`) === hidden.test(char)) wrong.push(cp.toString(16))
    }
    expect(wrong).toEqual([])
    expect(pattern.test('josé.müller@exämple.org')).toBe(true)
  })

  it('sends a form sign-in on only to a path on this site, whatever next says', async () => {
    const p = await s.person(ROLES.member)
    const next = async (value: string) =>
      (await s.req('POST', '/login', { form: { email: p.email, password: PASSWORD, next: value } })).headers.get('location')
    expect(await next('/admin/roster/?unit=pack')).toBe('/admin/roster/?unit=pack')
    for (const offSite of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example/',
      'javascript:alert(1)',
      '',
      // Dot segments that resolve to a path starting with two slashes, which a browser reads as another host.
      '/.//evil.example',
      '/..//evil.example',
      '/%2e%2e//evil.example',
      '/x/../..//evil.example/',
    ])
      expect(await next(offSite)).toBe('/family/')
    // A control character, which a browser would drop (/\tevil → //evil), is refused outright.
    expect((await s.req('POST', '/login', { form: { email: p.email, password: PASSWORD, next: '/\tevil' } })).status).toBe(422)
  })

  it('answers 303 to where the person starts for a form post: /admin/ for a leader, /family/ for a family account', async () => {
    for (const [role, start] of [
      [ROLES.packLeader, '/admin/'],
      [ROLES.member, '/family/'],
    ] as const) {
      const p = await s.person(role)
      const res = await s.req('POST', '/login', { form: { email: p.email.toUpperCase(), password: PASSWORD } })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe(start)
      expect(res.headers.get('set-cookie')).toStartWith('site_session=')
      const json = await s.req('POST', '/login', { json: { email: p.email, password: PASSWORD } })
      expect(json.body.start).toBe(start)
    }
  })

  it('sets a readable signed-in hint beside the HttpOnly session cookie, and sign-out clears both', async () => {
    const p = await s.person({ ...ROLES.member, email: 'hint.reader@example.org' })
    const res = await s.req('POST', '/login', { json: { email: p.email, password: PASSWORD } })
    const cookies = res.headers.getSetCookie()
    expect(cookies).toHaveLength(2)
    const hint = cookies.find((c) => c.startsWith('site_signed_in='))!
    expect(hint).not.toContain('HttpOnly')
    expect(JSON.parse(decodeURIComponent(hint.split(';')[0].split('=')[1]))).toEqual({ name: 'hint.reader', start: '/family/' })
    const session = cookies.find((c) => c.startsWith('site_session='))!.split(';')[0]
    const out = await s.req('POST', '/logout', { form: {}, cookie: session })
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toBe('/login/?signed-out')
    expect(
      out.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .sort(),
    ).toEqual(['site_session=', 'site_signed_in='])
  })

  it('answers 401 with the same message for a wrong password and an unknown email', async () => {
    const p = await s.person(ROLES.member)
    const wrong = await s.req('POST', '/login', { json: { email: p.email, password: 'not the password' } })
    const unknown = await s.req('POST', '/login', { json: { email: 'nobody@example.org', password: 'whatever1' } })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body.detail).toBe(unknown.body.detail)
    expect(wrong.headers.get('set-cookie')).toBeNull()
  })

  it('issues a new session token on every sign-in and ends the previous one of that browser', async () => {
    const p = await s.person(ROLES.member)
    const first = await s.signIn(p.email)
    const again = await s.req('POST', '/login', { cookie: first, json: { email: p.email, password: PASSWORD } })
    const second = again.headers.get('set-cookie')!.split(';')[0]
    expect(second).not.toBe(first)
    expect((await s.req('GET', '/api/admin/whoami', { cookie: first })).status).toBe(401)
    expect((await s.req('GET', '/api/admin/whoami', { cookie: second })).status).toBe(200)
  })

  it('logs login.success and login.failure with the actor', async () => {
    const p = await s.person(ROLES.member)
    await s.signIn(p.email)
    await s.req('POST', '/login', { json: { email: p.email, password: 'wrong password' } })
    expect((await history('login.success')).some((e) => e.actor === p.email)).toBe(true)
    expect((await history('login.failure')).some((e) => e.summary.includes(p.email))).toBe(true)
  })

  it('tells a disabled person with the right password that the account is disabled (403), and anyone else only 401', async () => {
    const p = await s.person(ROLES.member)
    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', p.id).execute()
    const right = await s.req('POST', '/login', { json: { email: p.email, password: PASSWORD } })
    expect(right.status).toBe(403)
    expect(right.body.detail).toContain('disabled')
    expect(right.headers.get('set-cookie')).toBeNull()
    const wrong = await s.req('POST', '/login', { json: { email: p.email, password: 'not the password' } })
    expect(wrong.status).toBe(401)
    expect(wrong.body.detail).not.toContain('disabled')
    expect((await history('login.failure')).some((e) => e.summary.includes(`${p.email} from`) && e.summary.includes('disabled'))).toBe(true)
  })
})

describe('sessions', () => {
  it('are dead (401) once the person is disabled, and a new one works after enabling', async () => {
    const p = await s.as(ROLES.packLeader)
    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', p.id).execute()
    expect((await s.req('GET', '/api/admin/whoami', { cookie: p.cookie })).status).toBe(401)
    await s.db.updateTable('people').set({ disabled_at: null }).where('id', '=', p.id).execute()
    const fresh = await s.signIn(p.email)
    expect((await s.req('GET', '/api/admin/whoami', { cookie: fresh })).status).toBe(200)
  })

  it('answers 401 to an unknown or expired session cookie', async () => {
    expect((await s.req('GET', '/api/admin/whoami', { cookie: 'site_session=nonsense' })).status).toBe(401)
    const p = await s.as(ROLES.member)
    await s.db.updateTable('sessions').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('person_id', '=', p.id).execute()
    expect((await s.req('GET', '/api/admin/whoami', { cookie: p.cookie })).status).toBe(401)
  })

  it('stores only a hash of the token', async () => {
    const p = await s.as(ROLES.member)
    const token = p.cookie.split('=')[1]
    const rows = await s.db.selectFrom('sessions').select('token_hash').where('person_id', '=', p.id).execute()
    expect(rows.length).toBe(1)
    expect(rows[0].token_hash).not.toContain(token)
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('a session already answered once (held in memory)', () => {
  const whoami = (cookie: string) => s.req('GET', '/api/admin/whoami', { cookie })
  const used = async (role: (typeof ROLES)[keyof typeof ROLES]) => {
    const p = await s.as(role)
    expect((await whoami(p.cookie)).status).toBe(200)
    return p
  }

  it('ends at once on sign-out, on sign-in from the same browser and when signed out from another device', async () => {
    const a = await used(ROLES.member)
    expect((await s.req('POST', '/logout', { cookie: a.cookie })).status).toBe(200)
    expect((await whoami(a.cookie)).status).toBe(401)

    const b = await used(ROLES.member)
    await s.req('POST', '/login', { cookie: b.cookie, json: { email: b.email, password: PASSWORD } })
    expect((await whoami(b.cookie)).status).toBe(401)

    const c = await used(ROLES.member)
    const phone = await s.signIn(c.email)
    expect((await whoami(phone)).status).toBe(200)
    const listed = (await s.req('GET', '/api/admin/account/sessions', { cookie: c.cookie })).body.sessions
    const other = listed.find((x: any) => !x.current)
    expect((await s.req('DELETE', `/api/admin/account/sessions/${other.id}`, { cookie: c.cookie })).status).toBe(200)
    expect((await whoami(phone)).status).toBe(401)
  })

  it('ends at once when the person is disabled or changes their password, and narrows at once when roles change', async () => {
    const owner = await s.as(ROLES.owner)
    const target = await used(ROLES.packLeader)
    expect((await s.req('POST', `/api/admin/people/${target.id}/disable`, { cookie: owner.cookie })).status).toBe(200)
    expect((await whoami(target.cookie)).status).toBe(401)

    const me = await used(ROLES.member)
    const phone = await s.signIn(me.email)
    expect((await whoami(phone)).status).toBe(200)
    const change = { current_password: PASSWORD, new_password: 'another long password' }
    expect((await s.req('POST', '/api/admin/account/password', { cookie: me.cookie, json: change })).status).toBe(200)
    expect((await whoami(phone)).status).toBe(401)
    expect((await whoami(me.cookie)).status).toBe(200)

    const leader = await used(ROLES.packLeader)
    expect((await whoami(leader.cookie)).body.capabilities).toContain('leads:read')
    const roles = await s.req('PUT', `/api/admin/people/${leader.id}/roles`, {
      cookie: owner.cookie,
      json: { global_role: null, units: [] },
    })
    expect(roles.status).toBe(200)
    expect((await whoami(leader.cookie)).body.capabilities).not.toContain('leads:read')
  })
})

describe('POST /logout', () => {
  it('ends the session, clears the cookie and logs it', async () => {
    const p = await s.as(ROLES.member)
    const res = await s.req('POST', '/logout', { cookie: p.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0')
    expect((await s.req('GET', '/api/admin/whoami', { cookie: p.cookie })).status).toBe(401)
    expect((await history('logout')).some((e) => e.actor === p.email)).toBe(true)
  })
})

describe('CSRF', () => {
  it('refuses a cookie-authenticated write from a foreign Origin with 403 and writes nothing', async () => {
    const owner = await s.as(ROLES.owner)
    const res = await s.req('PUT', '/api/admin/settings/announcements.live_cap', {
      cookie: owner.cookie,
      json: { value: 7 },
      headers: { origin: 'https://evil.example' },
    })
    expect(res.status).toBe(403)
    expect(typeof res.body.detail).toBe('string')
    const settings = await s.req('GET', '/api/admin/settings', { cookie: owner.cookie })
    expect(settings.body.settings.find((x: any) => x.key === 'announcements.live_cap').value).toBe(3)
  })

  it('accepts the same write from the site origin and without an Origin header', async () => {
    const owner = await s.as(ROLES.owner)
    const own = await s.req('PUT', '/api/admin/settings/announcements.live_cap', {
      cookie: owner.cookie,
      json: { value: 4 },
      headers: { origin: s.url },
    })
    expect(own.status).toBe(200)
    const none = await s.req('PUT', '/api/admin/settings/announcements.live_cap', { cookie: owner.cookie, json: { value: null } })
    expect(none.status).toBe(200)
  })

  it('does not apply to bearer keys', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['settings:write'])
    const res = await s.req('PUT', '/api/admin/settings/announcements.live_cap', {
      key,
      json: { value: null },
      headers: { origin: 'https://elsewhere.example' },
    })
    expect(res.status).toBe(200)
  })

  it('refuses a cross-site sign-in form', async () => {
    const p = await s.person(ROLES.member)
    const res = await s.req('POST', '/login', { form: { email: p.email, password: PASSWORD }, headers: { origin: 'https://evil.example' } })
    expect(res.status).toBe(403)
  })
})

describe('sign-in slow-down', () => {
  it('logs refusals while slowed down as one entry a minute per email and address, with the count: 500 attempts, not 500 rows', async () => {
    await withServer({}, async (local) => {
      const p = await local.person(ROLES.member)
      for (let i = 0; i < 500; i += 50)
        await Promise.all(
          Array.from({ length: 50 }, (_, j) => local.req('POST', '/login', { json: { email: p.email, password: `wrong-${i + j}` } })),
        )
      const rows = await local.db.selectFrom('action_log').select('summary').where('kind', '=', 'login.failure').orderBy('id').execute()
      expect(rows.length).toBeLessThanOrEqual(7) // 5 checked failures, and the slowed minute (two if a minute passed)
      const counted = rows.map((r) => Number(/(\d+) refused in a minute/.exec(r.summary)?.[1] ?? 0)).reduce((a, b) => a + b, 0)
      // Every attempt is in the log once: checked and logged alone, or counted among the refused. Five are checked
      // before the slow-down; on a loaded machine its wait can run out during the 500, and one more is checked.
      const checked = rows.filter((r) => !/refused in a minute/.test(r.summary)).length
      expect(checked).toBeGreaterThanOrEqual(5)
      expect(counted + checked).toBe(500)
    })
  })

  it('counts an IPv6 client by its /64: 100 addresses of one /64 get the checks of one address', async () => {
    await withServer({ TRUST_PROXY: '127.0.0.1/32' }, async (local) => {
      const statuses: number[] = []
      for (let i = 0; i < 100; i++) {
        const from = `2001:db8:aa:bb:${(i + 1).toString(16)}::1`
        const res = await local.req('POST', '/login', {
          json: { email: `guess${i}@example.org`, password: 'wrong-pass' },
          headers: { 'x-forwarded-for': from },
        })
        statuses.push(res.status)
      }
      expect(statuses.filter((code) => code === 401).length).toBe(20)
      expect(statuses.filter((code) => code === 429).length).toBe(80)
      // Another /64 is another client.
      const other = await local.req('POST', '/login', {
        json: { email: 'someone@example.org', password: 'wrong-pass' },
        headers: { 'x-forwarded-for': '2001:db8:aa:cc::1' },
      })
      expect(other.status).toBe(401)
    })
  })

  it('counts attempts still being checked: 60 wrong passwords at once from one address check only 5', async () => {
    await withServer({}, async (local) => {
      const p = await local.person(ROLES.member)
      const statuses = await Promise.all(
        Array.from({ length: 60 }, (_, i) => local.req('POST', '/login', { json: { email: p.email, password: `wrong-${i}-pass` } })),
      ).then((all) => all.map((r) => r.status))
      expect(statuses.filter((code) => code === 401).length).toBe(5)
      expect(statuses.filter((code) => code === 429).length).toBe(55)
    })
  })

  it('counts attempts still being checked per address: 100 emails at once from one address check only 20', async () => {
    await withServer({}, async (local) => {
      const statuses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          local.req('POST', '/login', { json: { email: `guess${i}@example.org`, password: 'wrong-pass' } }),
        ),
      ).then((all) => all.map((r) => r.status))
      expect(statuses.filter((code) => code === 401).length).toBe(20)
      expect(statuses.filter((code) => code === 429).length).toBe(80)
    })
  })

  it('answers 429 with Retry-After after repeated failures, even for the right password, and logs them', async () => {
    await withServer({}, async (local) => {
      const p = await local.person(ROLES.member)
      const statuses = []
      for (let i = 0; i < 7; i++)
        statuses.push((await local.req('POST', '/login', { json: { email: p.email, password: `wrong-${i}-pass` } })).status)
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
      expect(statuses.slice(5)).toContain(429)
      const right = await local.req('POST', '/login', { json: { email: p.email, password: PASSWORD } })
      expect(right.status).toBe(429)
      const retry = Number(right.headers.get('retry-after'))
      expect(retry).toBeGreaterThanOrEqual(1)
      expect(retry).toBeLessThanOrEqual(60)
      // Five checked failures, then one entry for the minute's refusals with their count.
      const failures = await local.db.selectFrom('action_log').select('summary').where('kind', '=', 'login.failure').orderBy('id').execute()
      expect(failures.length).toBe(6)
      expect(failures.at(-1)!.summary).toContain(`for ${p.email} from 127.0.0.1 slowed down after repeated failures: 3 refused in a minute`)
    })
  })
})
