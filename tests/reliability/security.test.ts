// Security checks: secrets never stored or repeated, traversal and SQL metacharacters refused, headers on every kind of answer.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { loadRoutes } from '../../server/routes.ts'
import { ADMIN_TOKEN, PASSWORD, ROLES, startServerWithSite, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => {
  s = await startServerWithSite({})
}, 60_000)
afterAll(() => s.stop())

describe('secrets', () => {
  it('never appear in the database files or in any answer after the first', async () => {
    const owner = await s.as(ROLES.owner)
    const sessionToken = owner.cookie.split('=')[1]
    const minted = await s.mintKey(owner.cookie, ['leads:read'])
    const invite = (
      await s.req('POST', '/api/admin/people/invite', { cookie: owner.cookie, json: { email: 'secret.test@example.org' } })
    ).body.url.split('/invite/')[1]
    const member = await s.person(ROLES.member)
    const reset = (await s.req('POST', `/api/admin/people/${member.id}/reset`, { cookie: owner.cookie })).body.url.split('/reset/')[1]
    const secrets = { password: PASSWORD, sessionToken, key: minted.key, invite, reset, adminToken: ADMIN_TOKEN }

    // Every read an owner can make afterwards.
    const answers = []
    for (const path of [
      '/api/admin/whoami',
      '/api/admin/keys',
      '/api/admin/people',
      '/api/admin/history?limit=500',
      '/api/admin/history/export',
      '/api/admin/settings',
    ])
      answers.push((await s.req('GET', path, { cookie: owner.cookie })).text)
    await s.db.selectFrom('people').select('id').execute() // flush nothing, just make sure the WAL holds the writes
    const files = ['site.db', 'site.db-wal'].map((f) => {
      try {
        return readFileSync(`${s.dir}/${f}`).toString('latin1')
      } catch {
        return ''
      }
    })
    for (const [name, secret] of Object.entries(secrets)) {
      for (const text of answers) expect(text.includes(secret), `${name} in an answer`).toBe(false)
      for (const file of files) expect(file.includes(secret), `${name} in the database`).toBe(false)
    }
  })
})

describe('paths', () => {
  it('refuses traversal on static files and the catalog', async () => {
    for (const path of [
      '/..%2f..%2f..%2fetc%2fpasswd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/_astro/..%2f..%2f..%2fpackage.json',
      '/%252e%252e/package.json',
      '/..\\..\\package.json',
      '/units/%00',
      '/api/catalog/..%2f..%2fpackage.json',
      '/api/catalog/%2e%2e',
    ]) {
      const res = await s.req('GET', path)
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.status, path).toBeLessThan(500)
      expect(res.text, path).not.toContain('"dependencies"')
      expect(res.text, path).not.toContain('root:')
    }
  })

  it('answers SQL metacharacters in every query parameter without a 5xx or a change', async () => {
    const owner = await s.as(ROLES.owner)
    const before = (await s.db.selectFrom('people').select('id').execute()).length
    for (const route of (await loadRoutes()).filter((r) => r.method === 'GET' && r.def.query)) {
      const names = Object.keys((route.def.query as any).properties ?? {})
      const path = route.path.replace(/:(\w+)/g, '1').replace('*', 'pack/x/image')
      for (const attack of ["' OR 1=1 --", '"; DROP TABLE people; --', '%', '_', '\\', "1' UNION SELECT password_hash FROM people --"]) {
        const query = new URLSearchParams(names.map((n) => [n, attack])).toString()
        const res = await s.req('GET', `${path}?${query}`, { cookie: owner.cookie })
        expect(res.status, `${path}?${query}`).toBeLessThan(500)
        expect(res.text).not.toContain('$argon2')
      }
    }
    expect((await s.db.selectFrom('people').select('id').execute()).length).toBe(before)
  })
})

describe('headers', () => {
  it('sends a CSP with frame-ancestors, nosniff and a referrer policy on pages, and no-store on admin answers', async () => {
    for (const path of ['/', '/login/', '/admin/', '/no-such-page']) {
      const res = await s.req('GET', path)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp, path).toContain("default-src 'self'")
      expect(csp, path).toContain("script-src 'self'")
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(res.headers.get('referrer-policy'), path).toBe('same-origin')
    }
    const page = await s.req('GET', '/admin/')
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/)
    const owner = await s.as(ROLES.owner)
    for (const path of ['/api/admin/whoami', '/api/admin/keys', '/api/admin/history']) {
      expect((await s.req('GET', path, { cookie: owner.cookie })).headers.get('cache-control'), path).toBe('no-store')
      expect((await s.req('GET', path)).headers.get('cache-control'), `${path} anonymous`).toBe('no-store')
    }
  })
})
