// Site regeneration: a public-data write shows on the public page; a failed build keeps the last good site.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SiteBuilder } from '../../server/site/builder.ts'
import { readEnv } from '../../server/env.ts'
import { ADMIN_TOKEN, eventually, ROLES, startServerWithSite, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => {
  s = await startServerWithSite({})
})
afterAll(() => s.stop())

describe('site regeneration', () => {
  it('serves the public pages built from the database, with cache headers and a 404 page', async () => {
    const home = await s.req('GET', '/')
    expect(home.status).toBe(200)
    expect(home.headers.get('cache-control')).toBe('no-cache')
    expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(home.text).toContain('Cub Scout Pack')
    const asset = /\/_astro\/[\w.-]+\.css/.exec(home.text)![0]
    expect((await s.req('GET', asset)).headers.get('cache-control')).toContain('immutable')
    const missing = await s.req('GET', '/no-such-page/')
    expect(missing.status).toBe(404)
    expect(missing.text).toContain('Page not found')
    expect((await s.req('GET', '/invite/some-token')).text).toContain('Accept your invite')
    expect((await s.req('GET', '/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404)
  })

  it('shows a changed meeting time on the public unit page within 10 s', async () => {
    const leader = await s.as(ROLES.troopLeader)
    expect(
      (await s.req('PATCH', '/api/admin/units/troop', { cookie: leader.cookie, json: { meeting_time: '19:25', meeting_day: 'friday' } }))
        .status,
    ).toBe(200)
    const took = await eventually(async () => (await s.req('GET', '/units/troop/')).text.includes('Fridays at 7:25 PM'), 10_000)
    expect(took).toBeLessThan(10_000)
    const home = await s.req('GET', '/')
    expect(home.text).toContain('Fridays at 7:25 PM')
  })

  it('reports builds on GET /api/admin/site and queues one on POST /api/admin/site/rebuild', async () => {
    const admin = await s.as(ROLES.admin)
    const status = await s.req('GET', '/api/admin/site', { cookie: admin.cookie })
    expect(status.status).toBe(200)
    expect(status.body.last).toMatchObject({ ok: true })
    expect(status.body.last.duration_ms).toBeGreaterThan(0)
    const before = status.body.builds.length
    expect((await s.req('POST', '/api/admin/site/rebuild', { cookie: admin.cookie })).status).toBe(202)
    await eventually(async () => (await s.req('GET', '/api/admin/site', { cookie: admin.cookie })).body.builds.length > before, 10_000)
    const leader = await s.as(ROLES.packLeader)
    expect((await s.req('GET', '/api/admin/site', { cookie: leader.cookie })).status).toBe(403)
    expect((await s.req('POST', '/api/admin/site/rebuild', { cookie: leader.cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/site')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/site', { token: ADMIN_TOKEN })).status).toBe(200)
  })

  it('keeps the last good site when a build fails, and logs site.build with the error', async () => {
    const env = readEnv({ DATABASE_PATH: `${s.dir}/site.db`, SITE_BUILDS_DIR: `${s.dir}/site-builds` })
    const failing = new SiteBuilder(s.db, env, {
      debounceMs: 10,
      command: [process.execPath, '-e', 'console.error("astro exploded"); process.exit(1)'],
    })
    const good = failing.currentDir()
    expect(good).not.toBeNull()
    const outcome = await failing.build('test failure')
    expect(outcome.ok).toBe(false)
    expect(outcome.error).toContain('astro exploded')
    expect(failing.currentDir()).toBe(good)
    expect((await s.req('GET', '/')).status).toBe(200)
    const log = await s.db
      .selectFrom('action_log')
      .selectAll()
      .where('kind', '=', 'site.build')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(log.summary).toContain('astro exploded')
    const admin = await s.as(ROLES.admin)
    const status = await s.req('GET', '/api/admin/site', { cookie: admin.cookie })
    expect(status.body.last).toMatchObject({ ok: false })
    expect(status.body.last_good).toMatchObject({ ok: true })
  })

  it('debounces a burst of writes into one build', async () => {
    const admin = await s.as(ROLES.admin)
    const count = async () => (await s.db.selectFrom('site_builds').select('id').execute()).length
    await eventually(async () => !s.site!.busy, 10_000)
    const before = await count()
    for (let i = 0; i < 5; i++)
      await s.req('PATCH', '/api/admin/units/pack', { cookie: admin.cookie, json: { meeting_place: `Hall ${i}` } })
    await eventually(async () => (await s.req('GET', '/units/pack/')).text.includes('Hall 4'), 10_000)
    await eventually(async () => !s.site!.busy, 10_000)
    expect((await count()) - before).toBeLessThanOrEqual(2)
  })
})
