// GET /healthz: 200 when the database answers and the site is served from a good last build, 503 otherwise, with
// every check in the body; optional checks (catalog, calendar) report without failing it. In-process with stand-in
// builds (a command that writes the pages), then against the real service with the real site build.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp, SERVE_OPTIONS } from '../../server/app.ts'
import { calendarStoreFor } from '../../server/calendar/store.ts'
import { CalendarWatch } from '../../server/calendar/watch.ts'
import { CatalogLoader } from '../../server/catalog/loader.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { openApiDocument } from '../../server/http/openapi.ts'
import { CHECKS } from '../../server/health/health.ts'
import { loadRoutes } from '../../server/routes.ts'
import { SiteBuilder } from '../../server/site/builder.ts'
import { contract } from '../contract.ts'
import { ADMIN_TOKEN, eventually } from '../helpers.ts'
import { startService } from '../service-process.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A stand-in for `astro build`: writes the two pages the builder looks for into SITE_OUT_DIR. */
const GOOD_BUILD = [
  process.execPath,
  '-e',
  `const d = process.env.SITE_OUT_DIR; require('fs').mkdirSync(d, { recursive: true });
   for (const f of ['index.html', '404.html']) require('fs').writeFileSync(d + '/' + f, '<p>' + f + '</p>')`,
]
const FAILING_BUILD = [process.execPath, '-e', 'console.error("astro exploded"); process.exit(1)']

async function startApp(vars: Record<string, string> = {}, options: { watch?: boolean; catalogDir?: string } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'healthz-'))
  dirs.push(dir)
  const env = readEnv({ DATABASE_PATH: path.join(dir, 'site.db'), ADMIN_TOKEN, PORT: '0', ...vars })
  const db = await openMigrated(env.databasePath)
  const site = new SiteBuilder(db, env, { command: GOOD_BUILD, debounceMs: 20 })
  const failing = new SiteBuilder(db, env, { command: FAILING_BUILD })
  const catalog = options.catalogDir ? new CatalogLoader(db, options.catalogDir, () => {}) : undefined
  await catalog?.loadAll()
  const store = calendarStoreFor(env, db)
  const calendarWatch =
    options.watch && store.kind === 'caldav'
      ? new CalendarWatch(
          db,
          store,
          () => {},
          () => {},
        )
      : null
  const app = await createApp({ db, env, site, catalog, calendarWatch })
  app.listen({ ...SERVE_OPTIONS, port: 0, hostname: '127.0.0.1' })
  const url = `http://127.0.0.1:${app.server!.port}`
  return {
    dir,
    db,
    site,
    failing,
    calendarWatch,
    /** GET /healthz, checked against the API contract; the time it took too. */
    async health() {
      const started = performance.now()
      const res = await fetch(`${url}/healthz`)
      const body = await res.json()
      const broken = (await contract()).check('GET', '/healthz', res.status, res.headers.get('content-type'), body)
      if (broken) throw new Error(`Contract broken: ${broken}`)
      return { status: res.status, body, headers: res.headers, ms: performance.now() - started }
    },
    async stop(closeDb = true) {
      await site.stop()
      await app.stop(true)
      if (closeDb) await db.destroy()
    },
  }
}

describe('GET /healthz', () => {
  it('answers one address outside the LAN 60 times a minute, then 429 with Retry-After; the LAN is not counted', async () => {
    const outside = await startApp({ LAN_CIDRS: '10.0.0.0/8' }) // loopback is not the LAN here
    const lan = await startApp()
    try {
      await outside.site.build('test')
      await lan.site.build('test')
      // The limit counts fixed minutes: a minute that turns during the run lets one more minute's worth through.
      let asked = 0
      let refused = await outside.health()
      for (; refused.status === 200 && asked < 200; asked++) refused = await outside.health()
      expect(asked).toBeGreaterThanOrEqual(60)
      expect(asked).toBeLessThanOrEqual(120)
      expect(refused.status).toBe(429)
      expect(refused.body.code).toBe('rate_limited')
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      for (let i = 0; i < 70; i++) expect((await lan.health()).status).toBe(200)
    } finally {
      await outside.stop()
      await lan.stop()
    }
  })

  it('answers 200 without a credential when the database answers and a good build is served: each check, no-store, fast', async () => {
    const s = await startApp()
    try {
      expect((await s.site.build('test')).ok).toBe(true)
      const res = await s.health()
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      // Other checks may join these; the calendar is shown only when one is configured.
      expect(res.body.checks.calendar).toBeUndefined()
      expect(res.body).toMatchObject({
        ok: true,
        checks: {
          database: { ok: true, required: true, ms: expect.any(Number) },
          site: {
            ok: true,
            required: true,
            served: true,
            building: false,
            last_build_ok: true,
            last_build_at: expect.any(String),
            age_seconds: expect.any(Number),
          },
          catalog: { ok: true, required: false, loaded: 0, refused: 0 },
        },
      })
      expect(res.ms).toBeLessThan(500)
      // Nothing about where things are kept, nor any secret.
      for (const secret of [s.dir, ADMIN_TOKEN, tmpdir()]) expect(JSON.stringify(res.body)).not.toContain(secret)
    } finally {
      await s.stop()
    }
  })

  it('answers 503 while the last site build failed (the last good site still served), and 200 after a good one', async () => {
    const s = await startApp()
    try {
      expect((await s.site.build('good')).ok).toBe(true)
      expect((await s.failing.build('bad')).ok).toBe(false)
      const bad = await s.health()
      expect(bad.status).toBe(503)
      expect(bad.headers.get('cache-control')).toBe('no-store')
      expect(bad.body.ok).toBe(false)
      expect(bad.body.checks.site).toMatchObject({ ok: false, required: true, served: true, last_build_ok: false })
      expect(bad.body.checks.database.ok).toBe(true)
      expect(JSON.stringify(bad.body)).not.toContain('astro exploded') // the build's output is for admins (GET /api/admin/site)
      expect((await s.site.build('fixed')).ok).toBe(true)
      expect((await s.health()).status).toBe(200)
    } finally {
      await s.stop()
    }
  })

  it('answers 503 before any build and when the served build has lost its files, and asks for the rebuild that heals it', async () => {
    const s = await startApp()
    try {
      const before = await s.health()
      expect(before.status).toBe(503)
      expect(before.body.checks.site).toMatchObject({
        ok: false,
        served: false,
        last_build_ok: null,
        last_build_at: null,
        age_seconds: null,
      })
      expect((await s.site.build('first')).ok).toBe(true)
      rmSync(s.site.currentDir()!, { recursive: true, force: true })
      const lost = await s.health()
      expect(lost.status).toBe(503)
      expect(lost.body.checks.site).toMatchObject({ ok: false, served: false, building: true, last_build_ok: true })
      await s.site.settled()
      expect((await s.health()).status).toBe(200)
    } finally {
      await s.stop()
    }
  })

  it('reports a failing or late backup without making the service unhealthy, and without its error text', async () => {
    const s = await startApp()
    try {
      await s.site.build('test')
      const before = (await s.health()).body
      expect(before.checks.backup).toEqual({ ok: true, required: false, last_at: null, age_seconds: null })
      expect(before).toMatchObject({ ok: true, status: 'ok', problems: [] })
      const at = new Date().toISOString()
      await s.db
        .insertInto('backups')
        .values({
          started_at: at,
          finished_at: at,
          reason: 'daily',
          ok: 0,
          file: null,
          bytes: null,
          error: 'disk full at /var/lib/secret-place',
        })
        .execute()
      const res = await s.health()
      expect(res.status).toBe(200)
      expect(res.body.checks.backup).toMatchObject({ ok: false, required: false, error: expect.stringContaining('history page') })
      // Working, but someone should look: said at the top, in a sentence.
      expect(res.body).toMatchObject({
        ok: true,
        status: 'degraded',
        problems: ['backup: The backup is failing or late; the history page (Backups) says why'],
      })
      expect(JSON.stringify(res.body)).not.toContain('/var/lib')
      // A good backup over 26 hours old is late.
      const old = new Date(Date.now() - 27 * 3_600_000).toISOString()
      await s.db
        .insertInto('backups')
        .values({ started_at: old, finished_at: old, reason: 'daily', ok: 1, file: 'site-x.db', bytes: 1, error: null })
        .execute()
      expect((await s.health()).body).toMatchObject({ status: 'degraded', checks: { backup: { ok: false } } })
    } finally {
      await s.stop()
    }
  })

  it('reports a refused season file without making the service unhealthy', async () => {
    const catalogDir = mkdtempSync(path.join(tmpdir(), 'healthz-catalog-'))
    dirs.push(catalogDir)
    writeFileSync(path.join(catalogDir, 'c6s3.json'), '{"season": ')
    const s = await startApp({}, { catalogDir })
    try {
      await s.site.build('test')
      const res = await s.health()
      expect(res.status).toBe(200)
      expect(res.body.checks.catalog).toEqual({
        ok: false,
        required: false,
        loaded: 0,
        refused: 1,
        error: 'A season file was refused; its last good version is served',
      })
      expect(res.body.status).toBe('degraded')
    } finally {
      await s.stop()
    }
  })

  it('shows the calendar only when one is configured, from what the last poll heard; an unreachable store does not fail the service', async () => {
    const caldav = {
      CALDAV_URL: 'http://127.0.0.1:1/cal/',
      CALDAV_USERNAME: 'calendar-user-name',
      CALDAV_PASSWORD: 'calendar-secret-password',
    }
    const s = await startApp(caldav, { watch: true })
    try {
      await s.site.build('test')
      expect((await s.health()).body.checks.calendar).toEqual({ ok: true, required: false, checked_at: null })
      expect(await s.calendarWatch!.poll()).toBe('failed')
      const res = await s.health()
      expect(res.status).toBe(200)
      expect(res.body.checks.calendar).toEqual({ ok: false, required: false, checked_at: expect.any(String), error: expect.any(String) })
      for (const secret of Object.values(caldav)) expect(JSON.stringify(res.body)).not.toContain(secret)
    } finally {
      await s.stop()
    }
  })

  it('answers 503, never a 500, when the database does not answer', async () => {
    const s = await startApp()
    try {
      await s.site.build('test')
      await s.site.stop()
      await s.db.destroy()
      const res = await s.health()
      expect(res.status).toBe(503)
      expect(res.body.checks.database).toMatchObject({ ok: false, required: true, error: expect.any(String) })
      expect(res.body.checks.site).toEqual({ ok: false, required: true, error: 'The check failed; the service log says why' })
    } finally {
      await s.stop(false)
    }
  })

  it('is in the API docs as a public operation answering 200 or 503 with the same body (429 past its limit)', async () => {
    const doc = openApiDocument(await loadRoutes(), 'http://localhost') as any
    const op = doc.paths['/healthz'].get
    expect(op.security).toEqual([])
    expect(op.tags).toEqual(['Health'])
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '429', '503'])
    const schema = op.responses['503'].content['application/json'].schema
    // Every check of the registry; the calendar may be absent (no calendar configured).
    expect(Object.keys(schema.properties.checks.properties)).toEqual(Object.keys(CHECKS))
    expect(Object.keys(CHECKS)).toEqual(expect.arrayContaining(['database', 'site', 'catalog', 'calendar']))
    expect(schema.properties.checks.required).not.toContain('calendar')
    expect(schema.properties.checks.required).toEqual(expect.arrayContaining(['database', 'site', 'catalog']))
    expect(op.responses['503'].content['application/json'].example.ok).toBe(false)
  })
})

describe('GET /healthz on the running service', () => {
  it('answers 200 once started, 503 when the served build is removed, and 200 again after the rebuild that asks for', async () => {
    const s = await startService()
    dirs.push(s.dir)
    try {
      const first = await fetch(`${s.url}/healthz`)
      expect(first.status).toBe(200)
      expect(first.headers.get('cache-control')).toBe('no-store')
      expect((await first.json()).checks.site).toMatchObject({ ok: true, served: true, last_build_ok: true })
      const builds = path.join(s.dir, 'site-builds', 'site.db')
      await eventually(async () => (await (await fetch(`${s.url}/healthz`)).json()).checks.site.building === false, 60_000)
      rmSync(path.join(builds, readlinkSync(path.join(builds, 'current'))), { recursive: true, force: true })
      const lost = await fetch(`${s.url}/healthz`)
      expect(lost.status).toBe(503)
      expect((await lost.json()).checks.site).toMatchObject({ ok: false, served: false })
      await eventually(async () => (await fetch(`${s.url}/healthz`)).status === 200, 60_000)
    } finally {
      expect(await s.stop()).toBe(0)
    }
  }, 120_000)
})
