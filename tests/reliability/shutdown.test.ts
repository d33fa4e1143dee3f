// Stopping the real service: SIGTERM refuses new connections, lets a request under way finish, bounds the wait for
// slow requests and for a site build, closes the database cleanly and exits 0; a second signal exits at once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { SiteBuilder } from '../../server/site/builder.ts'
import { heldRequest, refused, type ServiceProcess, startService as start } from '../service-process.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
// A test that fails midway leaves no service behind (it would hold the database for the next one).
const running: ServiceProcess[] = []
const startService = async (...args: Parameters<typeof start>) => {
  const s = await start(...args)
  running.push(s)
  return s
}
afterEach(async () => {
  const left = running.splice(0)
  for (const s of left) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL')
  await Promise.all(left.map((s) => s.proc.exited))
})

const joinBody = (name: string) => JSON.stringify({ parent_name: name, email: 'held.request@example.org', message: 'x'.repeat(2000) })

/** Waits until the service refuses new connections, and says how long that took. */
async function untilRefused(port: number, ms = 3000): Promise<number> {
  const start = Date.now()
  while (!(await refused(port))) {
    if (Date.now() - start > ms) throw new Error(`port ${port} still accepts connections after ${ms} ms`)
    await Bun.sleep(20)
  }
  return Date.now() - start
}

/** The database after the service stopped: no write-ahead log left to replay, intact, and what it holds. */
function closedCleanly(file: string) {
  const wal = `${file}-wal`
  const hotWal = existsSync(wal) && statSync(wal).size > 0
  const db = new Database(file, { readonly: true })
  try {
    const integrity = (db.query('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check
    const leads = (db.query('select parent_name from leads').all() as { parent_name: string }[]).map((l) => l.parent_name)
    return { hotWal, integrity, leads }
  } finally {
    db.close()
  }
}

describe('stopping the service', () => {
  let dir: string
  beforeAll(async () => {
    // A first start builds the site; every start after it serves that build and rebuilds in the background at once.
    const s = await startService()
    dir = s.dir
    dirs.push(dir)
    expect(await s.stop()).toBe(0)
  }, 90_000)

  it('on SIGTERM refuses new connections at once, finishes the request under way (201) and the site build, closes the database and exits 0', async () => {
    const s = await startService({}, dir)
    expect((await (await fetch(`${s.url}/healthz`)).json()).checks.site.building).toBe(true)
    const held = await heldRequest(s.port, 'POST', '/api/join', joinBody('Held Through Shutdown'))
    await Bun.sleep(100)
    const start = Date.now()
    s.proc.kill('SIGTERM')
    // Not after the build under way: at once.
    await untilRefused(s.port, 500)
    expect(s.proc.exitCode).toBeNull() // still answering the held request
    const answer = await held.finish()
    expect(answer).toStartWith('HTTP/1.1 201')
    expect(await s.proc.exited).toBe(0)
    expect(Date.now() - start).toBeLessThan(15_000)
    expect(s.output()).toMatch(/service\.stop .*SIGTERM: stopping/)
    expect(s.output()).toMatch(/site\.build .*(Site built in|Site build cancelled)/)
    expect(s.output()).toMatch(/service\.stop ok=true .*Stopped; the database is closed\n$/)
    expect(closedCleanly(s.databasePath)).toEqual({ hotWal: false, integrity: 'ok', leads: ['Held Through Shutdown'] })
  }, 90_000)

  it('exits at once on a second signal, without waiting for the request under way', async () => {
    const s = await startService({}, dir)
    const held = await heldRequest(s.port, 'POST', '/api/join', joinBody('Never Finished'))
    await Bun.sleep(200)
    s.proc.kill('SIGTERM')
    await untilRefused(s.port)
    const second = Date.now()
    s.proc.kill('SIGINT')
    expect(await s.proc.exited).toBe(1)
    expect(Date.now() - second).toBeLessThan(1500)
    expect(await held.closed).not.toContain('HTTP/1.1 201')
    expect(closedCleanly(s.databasePath)).toMatchObject({ integrity: 'ok', leads: ['Held Through Shutdown'] })
  }, 90_000)

  it('closes a request still under way after 10 s and exits 0, its half-sent write never stored', async () => {
    const s = await startService({}, dir)
    const held = await heldRequest(s.port, 'POST', '/api/join', joinBody('Too Slow'))
    await Bun.sleep(200)
    const start = Date.now()
    s.proc.kill('SIGTERM')
    expect(await s.proc.exited).toBe(0)
    const took = Date.now() - start
    expect(took).toBeGreaterThanOrEqual(9_500)
    expect(took).toBeLessThan(16_000)
    expect(await held.closed).not.toContain('HTTP/1.1 201')
    expect(s.output()).toContain('Requests still under way after 10 s')
    expect(closedCleanly(s.databasePath)).toEqual({ hotWal: false, integrity: 'ok', leads: ['Held Through Shutdown'] })
  }, 90_000)
})

describe('SiteBuilder.stop', () => {
  it('ends a build that would never finish once the grace is over, and records nothing for it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stop-build-'))
    dirs.push(dir)
    const env = readEnv({ DATABASE_PATH: path.join(dir, 'site.db') })
    const db = await openMigrated(env.databasePath)
    try {
      const site = new SiteBuilder(db, env, { command: [process.execPath, '-e', 'setInterval(() => {}, 1000)'] })
      const outcome = site.build('hangs')
      await Bun.sleep(300)
      const start = Date.now()
      await site.stop(500)
      expect(Date.now() - start).toBeLessThan(3000)
      expect(await outcome).toMatchObject({ ok: false, error: 'cancelled: the service is stopping' })
      expect(await db.selectFrom('site_builds').selectAll().execute()).toEqual([])
    } finally {
      await db.destroy()
    }
  })
})
