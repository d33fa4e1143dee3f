// Automatic backups: the schedule (injected clock), rotation that touches only our files, checked copies, what
// /healthz reads, and a real service process taking a catch-up backup, refusing a restore while it runs, being
// restored after it stops, and copying an older database before migrating it.
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test'
import { Database } from 'bun:sqlite'
import { readAll } from '../../server/backups/copy.ts'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { FileMigrationProvider, Migrator, sql } from 'kysely'
import type { Caller } from '../../server/auth/credential.ts'
import { listLeads } from '../../server/leads/queries.ts'
import { openDatabase } from '../../server/db/client.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { BEFORE_MIGRATION_KEPT, backupName, listBackups, prune, stemOf } from '../../server/backups/files.ts'
import { runBackup } from '../../server/backups/run.ts'
import { BackupSchedule, CATCH_UP_DELAY_MS, nextDailyAt, planAtStart, previousDailyAt } from '../../server/backups/schedule.ts'
import { lastBackup, STALE_AFTER_MS } from '../../server/backups/status.ts'
import { ADMIN_TOKEN, startServer } from '../helpers.ts'

setDefaultTimeout(60_000)

const root = path.join(import.meta.dir, '..', '..')
const MIGRATIONS = path.join(root, 'server', 'db', 'migrations')
const dir = mkdtempSync(path.join(tmpdir(), 'site-backups-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const at = (iso: string) => Date.parse(iso)
const iso = (ms: number) => new Date(ms).toISOString()
async function until(condition: () => boolean) {
  for (const started = Date.now(); !condition(); await Bun.sleep(10))
    if (Date.now() - started > 5_000) throw new Error(`not so within 5 s: ${condition}`)
}
// Statements finalized before close: a cached one keeps the file open until garbage collection, and restore
// (rightly) refuses a database another process has open.
const rows = (file: string, query: string) => {
  const db = new Database(file, { readonly: true })
  const result = readAll<any>(db, query)
  db.close(true)
  return result
}
const integrity = (file: string) => rows(file, 'PRAGMA integrity_check')[0].integrity_check

describe('the backup schedule', () => {
  const chicago = 'America/Chicago'

  it('runs next at backups.hour in the site time zone, the day after once that hour has passed', () => {
    expect(iso(nextDailyAt(at('2026-11-23T08:59:00Z'), 3, chicago))).toBe('2026-11-23T09:00:00.000Z') // 02:59 CST
    expect(iso(nextDailyAt(at('2026-11-23T09:00:00Z'), 3, chicago))).toBe('2026-11-24T09:00:00.000Z')
    expect(iso(nextDailyAt(at('2026-11-23T10:00:00Z'), 0, chicago))).toBe('2026-11-24T06:00:00.000Z')
    expect(iso(nextDailyAt(at('2026-11-23T10:00:00Z'), 23, chicago))).toBe('2026-11-24T05:00:00.000Z')
    expect(iso(nextDailyAt(at('2026-11-23T10:00:00Z'), 3, 'Europe/London'))).toBe('2026-11-24T03:00:00.000Z')
    expect(iso(nextDailyAt(at('2026-11-23T10:00:00Z'), 3, 'Asia/Kolkata'))).toBe('2026-11-23T21:30:00.000Z')
    expect(iso(previousDailyAt(at('2026-11-23T10:00:00Z'), 3, chicago))).toBe('2026-11-23T09:00:00.000Z')
    expect(iso(previousDailyAt(at('2026-11-23T08:00:00Z'), 3, chicago))).toBe('2026-11-22T09:00:00.000Z')
  })

  it('runs once on the days the clocks change', () => {
    // Fall back: 01:00 comes twice on 2026-11-01; the run after the first one is the next day's.
    const first = nextDailyAt(at('2026-11-01T05:30:00Z'), 1, chicago)
    expect(iso(first)).toBe('2026-11-01T06:00:00.000Z')
    expect(iso(nextDailyAt(first + 5_000, 1, chicago))).toBe('2026-11-02T07:00:00.000Z')
    // Spring forward: 02:00 does not exist on 2027-03-14; it runs at 03:00 CDT that day, then 02:00 CDT.
    const skipped = nextDailyAt(at('2027-03-14T05:00:00Z'), 2, chicago)
    expect(iso(skipped)).toBe('2027-03-14T08:00:00.000Z')
    expect(iso(nextDailyAt(skipped + 5_000, 2, chicago))).toBe('2027-03-15T07:00:00.000Z')
  })

  it('catches up soon after start when there is no backup or the last scheduled hour was missed', () => {
    const now = at('2026-11-23T15:00:00Z') // 09:00 CST; today's 03:00 run was at 09:00Z
    expect(planAtStart(now, 3, chicago, null)).toEqual({ at: now + CATCH_UP_DELAY_MS, reason: 'catch-up' })
    // Down at 03:00 today: the newest is yesterday's.
    expect(planAtStart(now, 3, chicago, at('2026-11-22T09:00:00Z'))).toEqual({ at: now + CATCH_UP_DELAY_MS, reason: 'catch-up' })
    // Today's ran: the next is tomorrow's.
    expect(planAtStart(now, 3, chicago, at('2026-11-23T09:00:01Z'))).toEqual({ at: at('2026-11-24T09:00:00Z'), reason: 'daily' })
    // Before today's hour, yesterday's backup is the newest there should be.
    expect(planAtStart(at('2026-11-23T08:00:00Z'), 3, chicago, at('2026-11-22T09:00:01Z'))).toEqual({
      at: at('2026-11-23T09:00:00Z'),
      reason: 'daily',
    })
  })

  it('moves the next run when backups.hour or site.timezone changes through the settings API', async () => {
    const s = await startServer()
    const now = at('2026-11-23T15:00:00Z')
    const place = { databasePath: path.join(s.dir, 'site.db'), dir: path.join(s.dir, 'backups') }
    mkdirSync(place.dir)
    writeFileSync(path.join(place.dir, backupName('site', at('2026-11-23T09:00:02Z'), 'daily')), '')
    const schedule = new BackupSchedule(s.db, place, () => now)
    try {
      expect(await schedule.start()).toEqual({ at: at('2026-11-24T09:00:00Z'), reason: 'daily' })
      const put = (key: string, value: unknown) => s.req('PUT', `/api/admin/settings/${key}`, { token: ADMIN_TOKEN, json: { value } })
      expect((await put('backups.hour', 22)).status).toBe(200)
      await until(() => schedule.planned?.at === at('2026-11-24T04:00:00Z')) // 22:00 CST today
      expect((await put('site.timezone', 'Europe/London')).status).toBe(200)
      await until(() => schedule.planned?.at === at('2026-11-23T22:00:00Z'))
      expect(schedule.planned?.reason).toBe('daily')
      expect((await put('backups.keep', 90)).status).toBe(200)
      expect((await put('backups.hour', 24)).status).toBe(422)
      expect((await put('backups.keep', 0)).status).toBe(422)
      expect((await put('backups.keep', 91)).status).toBe(422)
    } finally {
      await schedule.stop()
      await s.stop()
    }
  })
})

describe('rotation', () => {
  it('keeps the newest backups.keep daily copies and three before-migration ones, and never touches other files', () => {
    const folder = path.join(dir, 'rotation')
    mkdirSync(folder)
    const day = (n: number) => at('2026-11-01T09:00:00Z') + n * 86_400_000
    for (let n = 0; n < 10; n++) writeFileSync(path.join(folder, backupName('site', day(n), n % 2 ? 'daily' : 'catch-up')), '')
    for (let n = 0; n < 5; n++) writeFileSync(path.join(folder, backupName('site', day(n) + 60_000, 'before-migration')), '')
    const foreign = [
      'notes.txt',
      'site.db',
      'other-2026-11-01T090000Z.db',
      'site-2026-11-01.db',
      'site-2026-11-01T090000Z.db.gz',
      'mysite-2026-11-01T090000Z.db',
    ]
    for (const name of foreign) writeFileSync(path.join(folder, name), '')
    const partial = (name: string, ageMs: number) => {
      writeFileSync(path.join(folder, name), '')
      utimesSync(path.join(folder, name), (Date.now() - ageMs) / 1000, (Date.now() - ageMs) / 1000)
    }
    partial('.site-2026-11-05T090000Z.db.partial', 2 * 3_600_000) // left by a crash
    partial('.site-2026-11-23T090000Z.db.partial', 0) // being written now

    const removed = prune(folder, 'site', 3)
    expect(removed).toHaveLength(7 + 2 + 1)
    const left = readdirSync(folder).sort()
    expect(left).toEqual(
      [
        ...foreign,
        '.site-2026-11-23T090000Z.db.partial',
        'site-2026-11-08T090000Z.db',
        'site-2026-11-09T090000Z.db',
        'site-2026-11-10T090000Z.db',
        'site-2026-11-03T090100Z-before-migration.db',
        'site-2026-11-04T090100Z-before-migration.db',
        'site-2026-11-05T090100Z-before-migration.db',
      ].sort(),
    )
    expect(listBackups(folder, 'site').filter((f) => f.beforeMigration)).toHaveLength(BEFORE_MIGRATION_KEPT)
    expect(stemOf('data/site.db')).toBe('site')
    expect(stemOf('/x/pack.sqlite3')).toBe('pack')
  })
})

describe('runBackup and lastBackup', () => {
  it('writes a copy that passes integrity_check, rotates, records it, and lastBackup reports it', async () => {
    const databasePath = path.join(dir, 'run', 'site.db')
    const db = await openMigrated(databasePath)
    const place = { databasePath, dir: path.join(dir, 'run', 'backups') }
    try {
      expect(await lastBackup(db)).toEqual({ ok: true, at: null, file: null, error: null })
      await db
        .insertInto('settings')
        .values({ key: 'backups.keep', value: '2', updated_at: iso(Date.now()) })
        .execute()
      const names: string[] = []
      for (let n = 0; n < 3; n++) {
        const outcome = await runBackup(db, place, 'daily', at('2026-11-20T09:00:00Z') + n * 86_400_000)
        if (!outcome.ok) throw new Error(outcome.error)
        names.push(outcome.name)
      }
      expect(readdirSync(place.dir).sort()).toEqual(names.slice(1))
      for (const name of names.slice(1)) expect(integrity(path.join(place.dir, name))).toBe('ok')
      expect(rows(path.join(place.dir, names[2]), 'select slug from units').map((r) => r.slug)).toEqual(['pack', 'troop'])
      const status = await lastBackup(db)
      expect(status).toMatchObject({ ok: true, file: names[2], error: null })
      expect(await lastBackup(db, Date.parse(status.at!) + STALE_AFTER_MS + 1)).toMatchObject({
        ok: false,
        file: names[2],
        error: `No backup since ${status.at}`,
      })
    } finally {
      await db.destroy()
    }
  })

  it('first merges the lead search index into one segment (a search reads each segment), and searches find the same leads', async () => {
    const databasePath = path.join(dir, 'tidy', 'site.db')
    const db = await openMigrated(databasePath)
    const segments = async () =>
      Number((await sql<{ n: number }>`select count(distinct segid) as n from leads_search_idx`.execute(db)).rows[0].n)
    const owner: Caller = {
      via: 'break_glass',
      person: null,
      capabilities: new Set(),
      key: null,
      sessionId: null,
      actor: 'test',
      secondFactor: null,
    }
    const found = async () => (await listLeads(db, owner, { q: 'ñandú', limit: 100 })).leads.map((l) => l.id)
    try {
      // One lead a transaction, as the join form adds them: each adds a segment until FTS5 merges a level.
      for (let n = 0; n < 40; n++)
        await db
          .insertInto('leads')
          .values({ created_at: iso(Date.now()), parent_name: n % 4 ? `Parent ${n}` : `Pat Ñandú ${n}`, unit: 'pack' })
          .execute()
      const before = await found()
      expect(before).toHaveLength(10)
      expect(await segments()).toBeGreaterThan(1)
      expect((await runBackup(db, { databasePath, dir: path.join(dir, 'tidy', 'backups') }, 'daily')).ok).toBe(true)
      expect(await segments()).toBe(1)
      expect(await found()).toEqual(before)
    } finally {
      await db.destroy()
    }
  })

  it('reports a failure in the action log and through lastBackup, keeping the last good one', async () => {
    const databasePath = path.join(dir, 'fail', 'site.db')
    const db = await openMigrated(databasePath)
    try {
      const good = await runBackup(db, { databasePath, dir: path.join(dir, 'fail', 'backups') }, 'daily')
      expect(good.ok).toBe(true)
      writeFileSync(path.join(dir, 'fail', 'not-a-folder'), '')
      const bad = await runBackup(db, { databasePath, dir: path.join(dir, 'fail', 'not-a-folder') }, 'catch-up')
      expect(bad.ok).toBe(false)
      const entry = await db.selectFrom('action_log').selectAll().where('kind', '=', 'backups.failed').executeTakeFirstOrThrow()
      expect(entry.summary).toStartWith('The catch-up backup failed: ')
      const status = await lastBackup(db)
      expect(status.ok).toBe(false)
      expect(status.file).toBe(good.ok ? good.name : '')
      expect(status.error).toContain('failed')
    } finally {
      await db.destroy()
    }
  })
})

/** The service as a self-hoster starts it, with its output read until `pattern`. */
async function startService(dbPath: string, pattern: RegExp, vars: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, path.join(root, 'server/main.ts')], {
    cwd: path.dirname(dbPath),
    env: { ...process.env, DATABASE_PATH: dbPath, PORT: '0', NODE_ENV: 'production', ...vars },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const reader = proc.stdout.getReader()
  let out = ''
  // An upper bound, not the measure: a first start builds the site before it listens, a minute on a busy machine.
  const deadline = Date.now() + 150_000
  while (!pattern.test(out)) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} within 150 s: ${out}`)
    const { value, done } = await reader.read()
    if (done) throw new Error(`the service ended: ${out}${await new Response(proc.stderr).text()}`)
    out += new TextDecoder().decode(value)
  }
  void (async () => {
    while (!(await reader.read()).done); // keep draining
  })()
  return { proc, out }
}

function cli(args: string[], dbPath: string) {
  const run = Bun.spawnSync([process.execPath, path.join(root, 'server/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: dbPath },
  })
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() }
}

describe('the running service', () => {
  const folder = path.join(dir, 'service')
  const dbPath = path.join(folder, 'site.db')
  const backups = path.join(folder, 'backups')
  const nearby = (file: string) => rows(file, 'select name from nearby_units order by name').map((r) => r.name)

  beforeAll(async () => {
    mkdirSync(backups, { recursive: true })
    const db = await openMigrated(dbPath)
    await db
      .insertInto('settings')
      .values({ key: 'backups.keep', value: '3', updated_at: iso(Date.now()) })
      .execute()
    await db
      .insertInto('nearby_units')
      .values({ name: 'Before the backup', unit_type: 'crew', active: 1, created_at: iso(Date.now()), updated_at: iso(Date.now()) } as any)
      .execute()
    await db.destroy()
    // kysely-bun-sqlite leaves its statements to the garbage collector, which keeps the file open until then;
    // restore below (rightly) refuses a database another process still has open.
    Bun.gc(true)
    // Five old daily backups of ours (the newest four days old: the service was down) and files not ours.
    for (let n = 1; n <= 5; n++) writeFileSync(path.join(backups, backupName('site', Date.now() - (n + 3) * 86_400_000, 'daily')), 'old')
    for (const name of ['README.txt', 'other-2026-01-01T000000Z.db']) writeFileSync(path.join(backups, name), 'not ours')
  })

  it('takes a catch-up backup soon after start that passes integrity_check, and keeps backups.keep of them', async () => {
    const { proc, out } = await startService(dbPath, /Backed up the database to (\S+) \(catch-up\)/)
    try {
      // Soon after start by the service's own log times: from the line saying it listens to the backup's line (the
      // site build before listening is the start's own work, however long a busy machine makes it).
      const loggedAt = (pattern: RegExp) =>
        Date.parse(
          out
            .split('\n')
            .find((line) => pattern.test(line))!
            .split(' ')[0],
        )
      expect(loggedAt(/Backed up the database to \S+ \(catch-up\)/) - loggedAt(/ service\.start /)).toBeLessThan(30_000)
      const file = /Backed up the database to (\S+) \(catch-up\)/.exec(out)![1]
      expect(path.dirname(file)).toBe(backups)
      expect(integrity(file)).toBe('ok')
      expect(nearby(file)).toEqual(['Before the backup'])
      const ours = listBackups(backups, 'site')
      expect(ours.map((f) => f.name)).toHaveLength(3)
      expect(ours[0].name).toBe(path.basename(file))
      expect(existsSync(path.join(backups, 'README.txt'))).toBe(true)
      expect(existsSync(path.join(backups, 'other-2026-01-01T000000Z.db'))).toBe(true)
      expect(rows(dbPath, 'select reason, ok, file from backups')).toEqual([{ reason: 'catch-up', ok: 1, file: path.basename(file) }])

      // A write after the backup, then restore is refused while the service runs: one line, exit 1.
      const live = new Database(dbPath)
      live.run(
        "insert into nearby_units (name, unit_type, active, created_at, updated_at) values ('After the backup', 'crew', 1, '2026-11-23', '2026-11-23')",
      )
      live.close(true)
      const refused = cli(['restore', file], dbPath)
      expect(refused.code).toBe(1)
      expect(refused.err).toBe(`${dbPath} is in use by another process (pid ${proc.pid}); stop it first\n`)
      expect(refused.out).toBe('')
      expect(nearby(dbPath)).toEqual(['After the backup', 'Before the backup'])

      // A second service on the same database refuses to start.
      const second = Bun.spawnSync([process.execPath, path.join(root, 'server/main.ts')], {
        env: { ...process.env, DATABASE_PATH: dbPath, PORT: '0' },
      })
      expect(second.exitCode).toBe(1)
      expect(second.stderr.toString()).toBe(`${dbPath} is in use by another process (pid ${proc.pid}); stop it first\n`)
      // Nor does deleting the pid file let one in: the running service holds a lock on the database itself.
      rmSync(`${dbPath}.pid`)
      const third = Bun.spawnSync([process.execPath, path.join(root, 'server/main.ts')], {
        env: { ...process.env, DATABASE_PATH: dbPath, PORT: '0' },
      })
      expect(third.exitCode).toBe(1)
      expect(third.stderr.toString()).toBe(`${dbPath} is in use by another process; stop it first\n`)
    } finally {
      proc.kill()
      await proc.exited
    }
    expect(existsSync(`${dbPath}.pid`)).toBe(false)
  })

  it('restore puts the backup in place once the service stopped and keeps the replaced file, which a new start serves', async () => {
    const [newest] = listBackups(backups, 'site')
    const run = cli(['restore', path.join(backups, newest.name)], dbPath)
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    const kept = /kept as (\S+)$/.exec(run.out.trim())![1]
    expect(run.out.trim().split('\n')).toHaveLength(1)
    expect(kept).toStartWith(`${dbPath}.replaced-`)
    // The old WAL went into the kept file, which stands on its own; nothing of it is left beside the database.
    for (const side of ['-wal', '-shm']) expect([existsSync(dbPath + side), existsSync(kept + side)]).toEqual([false, false])
    expect(nearby(dbPath)).toEqual(['Before the backup'])
    expect(nearby(kept)).toEqual(['After the backup', 'Before the backup'])
    expect(integrity(kept)).toBe('ok')
    expect(rows(dbPath, "select actor, summary from action_log where kind = 'backups.restore'")).toEqual([
      { actor: 'cli', summary: `Restored from ${newest.name} (the replaced database is kept as ${path.basename(kept)})` },
    ])
    // The restored database serves: the service starts on it (its newest backup is fresh: no catch-up now).
    const { proc, out } = await startService(dbPath, /port (\d+)/, { ADMIN_TOKEN })
    try {
      const port = /port (\d+)/.exec(out)![1]
      const res = await fetch(`http://127.0.0.1:${port}/api/admin/nearby`, { headers: { 'x-admin-token': ADMIN_TOKEN } })
      expect(res.status).toBe(200)
      expect((await res.json()).nearby.map((n: any) => n.name)).toEqual(['Before the backup'])
    } finally {
      proc.kill()
      await proc.exited
    }
  })

  it('restore refuses a damaged file, a database of something else, one from a newer version and a missing file, changing nothing', () => {
    const before = nearby(dbPath)
    const damaged = path.join(folder, 'damaged.db')
    const bytes = new Uint8Array(readFileSync(path.join(backups, listBackups(backups, 'site')[0].name)))
    bytes.fill(0x41, 4096 * 2, 4096 * 6) // pages 3-6 overwritten
    writeFileSync(damaged, bytes)
    const foreign = path.join(folder, 'foreign.db')
    const foreignDb = new Database(foreign, { create: true })
    foreignDb.run('create table t (x)')
    foreignDb.close(true)
    const newer = path.join(folder, 'newer.db')
    writeFileSync(newer, readFileSync(path.join(backups, listBackups(backups, 'site')[0].name)))
    const newerDb = new Database(newer)
    newerDb.run(`insert into kysely_migration (name, timestamp) values ('2099-01-01T0000-future', '2099-01-01')`)
    newerDb.close(true)
    const cases: [string, RegExp][] = [
      [newer, /^.+newer\.db comes from a newer version of the service \(migration 2099-01-01T0000-future is unknown here\)\n$/],
      [damaged, /^.+damaged\.db cannot be restored: (integrity_check failed|database disk image is malformed|file is not a database).*\n$/],
      [foreign, /^.+foreign\.db cannot be restored: it is not a database of this service \(no kysely_migration table\)\n$/],
      [path.join(folder, 'missing.db'), /^.+missing\.db does not exist\n$/],
    ]
    for (const [file, message] of cases) {
      const run = cli(['restore', file], dbPath)
      expect(run.code).toBe(1)
      expect(run.err).toMatch(message)
    }
    const none = cli(['restore'], dbPath)
    expect([none.code, none.err]).toEqual([1, 'restore needs the path of a backup file\n'])
    expect(nearby(dbPath)).toEqual(before)
    expect(readdirSync(folder).filter((f) => f.includes('.replaced-'))).toHaveLength(1)
  })

  it('restore refuses while any other process has the database open, even one that wrote no pid file', async () => {
    const before = nearby(dbPath)
    const holder = Bun.spawn(
      [
        process.execPath,
        '-e',
        `const db = new (require('bun:sqlite').Database)(${JSON.stringify(dbPath)}); db.exec('PRAGMA journal_mode = WAL');
         db.query('select 1').get(); console.log('open'); setInterval(() => db.query('select 1').get(), 50)`,
      ],
      { stdout: 'pipe' },
    )
    try {
      const reader = holder.stdout.getReader()
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('open')
      const run = cli(['restore', path.join(backups, listBackups(backups, 'site')[0].name)], dbPath)
      expect(run.code).toBe(1)
      expect(run.err).toBe(`${dbPath} is open in another process (a service, a backup or a database shell); stop it first\n`)
      expect(existsSync(`${dbPath}.pid`)).toBe(false)
    } finally {
      holder.kill()
      await holder.exited
    }
    expect(nearby(dbPath)).toEqual(before)
    expect(readdirSync(folder).filter((f) => f.includes('.replaced-'))).toHaveLength(1)
  })

  it('restore ignores the pid file a crashed service left behind', async () => {
    const crashed = Bun.spawn([process.execPath, '-e', '0'])
    await crashed.exited
    writeFileSync(`${dbPath}.pid`, JSON.stringify({ pid: crashed.pid, started: '1' }))
    const run = cli(['restore', path.join(backups, listBackups(backups, 'site')[0].name)], dbPath)
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    // And a record naming a live process that is not the one recorded (a reused pid) is stale too.
    writeFileSync(`${dbPath}.pid`, JSON.stringify({ pid: process.pid === 1 ? 2 : 1, started: 'not its start time' }))
    expect(cli(['restore', path.join(backups, listBackups(backups, 'site')[0].name)], dbPath).code).toBe(0)
    rmSync(`${dbPath}.pid`, { force: true })
  })
})

describe('before migrations', () => {
  it('copies a database that holds data into the backup folder before migrating it, and logs it', async () => {
    const folder = path.join(dir, 'upgrade')
    const dbPath = path.join(folder, 'site.db')
    mkdirSync(folder)
    // The database as the previous version left it: every migration but the newest.
    const names = readdirSync(MIGRATIONS)
      .map((f) => f.replace(/\.ts$/, ''))
      .sort()
    const db = openDatabase(dbPath)
    const migrator = new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS }) })
    expect((await migrator.migrateTo(names.at(-2)!)).error).toBeUndefined()
    await db.destroy()

    const { proc, out } = await startService(dbPath, /port (\d+)/, { BACKUP_DIR: path.join(folder, 'elsewhere') })
    try {
      const copies = listBackups(path.join(folder, 'elsewhere'), 'site').filter((f) => f.beforeMigration)
      expect(copies).toHaveLength(1)
      const copy = path.join(folder, 'elsewhere', copies[0].name)
      expect(out).toContain(`before migrating it`)
      expect(integrity(copy)).toBe('ok')
      expect(rows(copy, 'select name from kysely_migration order by name').map((r) => r.name)).toEqual(names.slice(0, -1))
      expect(rows(dbPath, 'select name from kysely_migration order by name').map((r) => r.name)).toEqual(names)
      expect(rows(dbPath, "select summary from action_log where kind = 'backups.before_migration'")).toEqual([
        { summary: `Copied the database to ${copies[0].name} before applying ${names.at(-1)}` },
      ])
    } finally {
      proc.kill()
      await proc.exited
    }
    // Started again with nothing pending: no second copy.
    const again = await startService(dbPath, /port (\d+)/, { BACKUP_DIR: path.join(folder, 'elsewhere') })
    again.proc.kill()
    await again.proc.exited
    expect(listBackups(path.join(folder, 'elsewhere'), 'site').filter((f) => f.beforeMigration)).toHaveLength(1)
  })

  it('takes no copy of a new, empty database', async () => {
    const folder = path.join(dir, 'new')
    await (await openMigrated(path.join(folder, 'site.db'))).destroy()
    expect(existsSync(path.join(folder, 'backups'))).toBe(false)
  })
})
