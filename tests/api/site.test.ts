// Site regeneration: a public-data write shows on the public page; a failed build keeps the last good site.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, rmSync } from 'node:fs'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { SiteBuilder } from '../../server/site/builder.ts'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN, expectDetail, PUBLIC_PAGES, ROLES, startServer, startServerWithSite, type TestServer } from '../helpers.ts'

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

  it('shows a changed meeting time on the public unit page once the build that covers the write is done', async () => {
    const leader = await s.as(ROLES.troopLeader)
    expect(
      (await s.req('PATCH', '/api/admin/units/troop', { cookie: leader.cookie, json: { meeting_time: '19:25', meeting_day: 'friday' } }))
        .status,
    ).toBe(200)
    expect((await s.site!.settled())?.ok).toBe(true)
    expect((await s.req('GET', '/units/troop/')).text).toContain('Fridays at 7:25 PM')
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
    await s.site!.settled()
    expect((await s.req('GET', '/api/admin/site', { cookie: admin.cookie })).body.builds.length).toBe(before + 1)
    const leader = await s.as(ROLES.packLeader)
    expect((await s.req('GET', '/api/admin/site', { cookie: leader.cookie })).status).toBe(403)
    expect((await s.req('POST', '/api/admin/site/rebuild', { cookie: leader.cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/site')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/site', { token: ADMIN_TOKEN })).status).toBe(200)
  })

  it('keeps the last good site when a build fails, and logs site.build with the error', async () => {
    const env = readEnv({ DATABASE_PATH: `${s.dir}/site.db` })
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
    const log = await s.lastLog('site.build')
    expect(log.summary).toContain('astro exploded')
    const admin = await s.as(ROLES.admin)
    const status = await s.req('GET', '/api/admin/site', { cookie: admin.cookie })
    expect(status.body.last).toMatchObject({ ok: false })
    expect(status.body.last_good).toMatchObject({ ok: true })
  })

  it('debounces a burst of writes into one build', async () => {
    const admin = await s.as(ROLES.admin)
    const count = async () => (await s.db.selectFrom('site_builds').select('id').execute()).length
    await s.site!.settled()
    const before = await count()
    for (let i = 0; i < 5; i++)
      await s.req('PATCH', '/api/admin/units/pack', { cookie: admin.cookie, json: { meeting_place: `Hall ${i}` } })
    await s.site!.settled()
    expect((await s.req('GET', '/units/pack/')).text).toContain('Hall 4')
    expect((await count()) - before).toBeLessThanOrEqual(2)
  })

  it('lets a build that starts answer a request still waiting out its debounce, instead of building again after it', async () => {
    const count = async () => (await s.db.selectFrom('site_builds').select('id').execute()).length
    await s.site!.settled()
    const before = await count()
    s.site!.request('data changed')
    const started = s.site!.build('asked directly')
    expect(await s.site!.settled()).toEqual(await started)
    expect((await count()) - before).toBe(1)
  })

  it("keeps each database's builds apart: three rebuilds of another database in the same folder leave this site whole", async () => {
    // At the line's build priority (0 there): a niced build on a busy machine waits behind every other worker.
    const otherEnv = readEnv({ DATABASE_PATH: path.join(s.dir, 'other.db'), SITE_BUILD_NICENESS: process.env.SITE_BUILD_NICENESS })
    const mine = s.site!.currentDir()!
    expect(path.dirname(otherEnv.siteBuildsDir)).toBe(path.dirname(path.dirname(mine)))
    expect(otherEnv.siteBuildsDir).not.toBe(path.dirname(mine))
    const otherDb = await openMigrated(otherEnv.databasePath)
    const other = new SiteBuilder(otherDb, otherEnv)
    try {
      for (let i = 0; i < 3; i++) expect((await other.build(`other ${i}`)).ok).toBe(true)
    } finally {
      await other.stop()
      await otherDb.destroy()
    }
    expect(existsSync(mine)).toBe(true)
    for (const page of ['/', '/admin/', '/no-such-page/'])
      expect((await s.req('GET', page)).status).toBe(page === '/no-such-page/' ? 404 : 200)
  })

  it("refuses a builds folder that holds another database's site", async () => {
    const foreign = readEnv({ DATABASE_PATH: path.join(s.dir, 'third.db'), SITE_BUILDS_DIR: path.dirname(s.site!.currentDir()!) })
    const thirdDb = await openMigrated(foreign.databasePath)
    try {
      expect(() => new SiteBuilder(thirdDb, foreign)).toThrow(/holds the site builds of .*site\.db/)
    } finally {
      await thirdDb.destroy()
    }
  })

  it('answers a removed build with a "being built" page, rebuilds, and serves again', async () => {
    await s.site!.settled()
    const served = s.site!.currentDir()!
    rmSync(served, { recursive: true, force: true })
    const page = await s.req('GET', '/units/pack/')
    expect(page.status).toBe(503)
    expect(page.headers.get('retry-after')).toBe('5')
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.text).toContain('being built')
    expect((await s.site!.settled())?.ok).toBe(true)
    expect(s.site!.currentDir()).not.toBe(served)
    expect((await s.req('GET', '/units/pack/')).status).toBe(200)
  })
})

describe('what search engines and link previews read', () => {
  const meta = (html: string, attr: string, name: string) =>
    new RegExp(`<meta ${attr}="${name.replace('.', '\\.')}" content="([^"]*)"`).exec(html)?.[1]

  it('gives every public page a title, a meta description, Open Graph title and description, and a favicon', async () => {
    for (const path of PUBLIC_PAGES) {
      const html = (await s.req('GET', path)).text
      expect(meta(html, 'name', 'description')?.length, path).toBeGreaterThan(20)
      expect(meta(html, 'property', 'og:title')?.length, path).toBeGreaterThan(2)
      expect(meta(html, 'property', 'og:description')?.length, path).toBeGreaterThan(20)
      expect(html, path).toContain('<link rel="icon" href="/favicon.svg"')
      expect(html, path).not.toContain('noindex')
    }
    const icon = await s.req('GET', '/favicon.svg')
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toContain('image/svg+xml')
    expect((await s.req('GET', '/admin/')).text).toContain('<meta name="robots" content="noindex"')
  })

  it('serves robots.txt keeping crawlers out of the private paths, and a sitemap of the public pages', async () => {
    const robots = await s.req('GET', '/robots.txt')
    expect(robots.headers.get('content-type')).toContain('text/plain')
    for (const path of ['/admin/', '/api/', '/family/', '/invite/', '/reset/', '/setup/', '/unsubscribe/', '/reply/'])
      expect(robots.text).toContain(`Disallow: ${path}`)
    expect(robots.text).toContain('Sitemap: http://127.0.0.1:1/sitemap.xml')
    const sitemap = await s.req('GET', '/sitemap.xml')
    expect(sitemap.headers.get('content-type')).toContain('xml')
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    expect(locs).toContain('http://127.0.0.1:1/')
    expect(locs).toContain('http://127.0.0.1:1/units/pack/')
    expect(locs.some((l) => l.includes('/admin'))).toBe(false)
  })

  it('names the site and describes it from the settings, in the header, titles and previews', async () => {
    const admin = await s.as(ROLES.admin)
    for (const [key, value] of [
      ['site.name', 'Pack 12 & Troop 34'],
      ['site.description', 'Scouting in Maple Grove: a pack for young kids and a troop for older ones.'],
    ])
      expect((await s.req('PUT', `/api/admin/settings/${key}`, { cookie: admin.cookie, json: { value } })).status).toBe(200)
    expect((await s.site!.settled())?.ok).toBe(true)
    const home = (await s.req('GET', '/')).text
    expect(home).toContain('<title>Pack 12 &amp; Troop 34</title>')
    expect(home).toContain('<a class="brand" href="/">Pack 12 &amp; Troop 34</a>')
    expect(meta(home, 'name', 'description')).toBe('Scouting in Maple Grove: a pack for young kids and a troop for older ones.')
    expect((await s.req('GET', '/nearby/')).text).toContain('<title>Nearby units · Pack 12 &amp; Troop 34</title>')
    expectDetail(await s.req('PUT', '/api/admin/settings/site.name', { cookie: admin.cookie, json: { value: '   ' } }), 422)
  })
})

describe('replies on the public calendar', () => {
  it('asks visitors to sign in to reply until replies close (data-closes for the page’s script), and says closed after', async () => {
    const leader = await s.as(ROLES.packLeader)
    const ask = async (title: string, closes_at: string) => {
      const res = await s.req('POST', '/api/admin/calendar', {
        cookie: leader.cookie,
        json: { title, date: addDays(today(), 9), time: '18:00', unit: 'pack', rsvp: true, signup: { closes_at } },
      })
      expect(res.status).toBe(201)
      return res.body.uid as string
    }
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
    const open = await ask('Open campfire', tomorrow)
    const closed = await ask('Closed campfire', new Date(Date.now() - 60_000).toISOString())
    expect((await s.site!.settled())?.ok).toBe(true)
    const html: string = (await s.req('GET', '/calendar/')).text
    const card = (uid: string) => {
      const from = html.indexOf(`data-event="${uid}"`)
      expect(from).toBeGreaterThan(-1)
      return html.slice(from, html.indexOf('</li>', from))
    }
    expect(card(open)).toContain(`data-closes="${tomorrow}"`)
    expect(card(open)).toContain('Sign in to reply')
    expect(card(closed)).toContain('Replies are closed.')
    expect(card(closed)).not.toContain('data-rsvp-slot')
  })
})

describe('before the first build', () => {
  it('answers pages with a small HTML page and Retry-After, while the API answers as usual', async () => {
    const fresh = await startServer({}, { site: true })
    try {
      for (const method of ['GET', 'HEAD']) {
        const page = await fresh.req(method, '/')
        expect(page.status).toBe(503)
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
        expect(page.headers.get('retry-after')).toBe('5')
        expect(page.headers.get('content-security-policy')).toContain("default-src 'self'")
        if (method === 'GET') expect(page.text).toMatch(/^<!doctype html>[\s\S]*being built/)
      }
      expect((await fresh.req('GET', '/api/admin/whoami')).status).toBe(401)
    } finally {
      await fresh.stop()
    }
  })
})
