// A full disk is seen: the data folder on a small tmpfs, filled to the last byte. /healthz answers 503 with the
// sentence and the free space, writes (the join form, a sign-in, a new scout) answer 507 with it and write nothing,
// the log names SQLite's own error; once space is freed everything works again. A start on a full disk refuses.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { createApp, SERVE_OPTIONS } from '../../server/app.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { DISK_FULL, FREE_FLOOR_BYTES } from '../../server/ops/disk.ts'
import { Logger, useLogger } from '../../server/ops/log.ts'
import { createAccount } from '../../server/people/accounts.ts'
import { SiteBuilder } from '../../server/site/builder.ts'
import { contract } from '../contract.ts'
import { addHousehold } from '../households.ts'
import { ADMIN_TOKEN, PASSWORD, passwordHashOf } from '../helpers.ts'
import { startService } from '../service-process.ts'

const mount = mkdtempSync(path.join(tmpdir(), 'full-disk-'))
const data = path.join(mount, 'data')
const filler = path.join(mount, 'filler')
const lines: string[] = []

/** A stand-in for `astro build`: the two pages the builder looks for. */
const GOOD_BUILD = [
  process.execPath,
  '-e',
  `const d = process.env.SITE_OUT_DIR; require('fs').mkdirSync(d, { recursive: true });
   for (const f of ['index.html', '404.html']) require('fs').writeFileSync(d + '/' + f, '<p>' + f + '</p>')`,
]

/** Writes into `filler` until the file system refuses a single byte more. */
function fill() {
  const fd = openSync(filler, 'a')
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = new Uint8Array(size)
      try {
        for (;;) writeSync(fd, chunk)
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error
      }
    }
  } finally {
    closeSync(fd)
  }
}

let url = ''
let stopApp: () => Promise<void> = async () => {}
let db: Awaited<ReturnType<typeof openMigrated>>
let householdId = 0
const email = 'leader.full-disk@example.org'

async function req(method: string, p: string, init: { json?: unknown; cookie?: string; token?: string } = {}) {
  const headers: Record<string, string> = {}
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  if (init.cookie) headers.cookie = init.cookie
  if (init.token) headers['x-admin-token'] = init.token
  const res = await fetch(url + p, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) })
  const body = await res.json()
  const broken = (await contract()).check(method, p, res.status, res.headers.get('content-type'), body)
  if (broken) throw new Error(`Contract broken: ${broken}`)
  return { status: res.status, body, headers: res.headers }
}

const counts = async () => {
  const n = async (table: 'leads' | 'sessions' | 'scouts' | 'action_log') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  return { leads: await n('leads'), sessions: await n('sessions'), scouts: await n('scouts'), log: await n('action_log') }
}

beforeAll(async () => {
  Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mount])
  mkdirSync(data)
  useLogger(new Logger('text', (line) => lines.push(line)))
  const env = readEnv({ DATABASE_PATH: path.join(data, 'site.db'), ADMIN_TOKEN, PORT: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:1' })
  db = await openMigrated(env.databasePath)
  const site = new SiteBuilder(db, env, { command: GOOD_BUILD, debounceMs: 20 })
  await site.build('test')
  const app = await createApp({ db, env, site })
  app.listen({ ...SERVE_OPTIONS, port: 0, hostname: '127.0.0.1' })
  url = `http://127.0.0.1:${app.server!.port}`
  stopApp = async () => {
    await site.stop()
    await app.stop(true)
    await db.destroy()
  }
  const unit = await db.selectFrom('units').select('id').where('slug', '=', 'pack').executeTakeFirstOrThrow()
  const password_hash = await passwordHashOf(PASSWORD)
  await db.transaction().execute((trx) =>
    createAccount(trx, {
      email,
      name: null,
      password_hash,
      global_role: null,
      units: [{ unit_id: unit.id, role: 'leader', title: null }],
    }),
  )
  householdId = await addHousehold(db, { unit: 'pack', email: 'family.full-disk@example.org' })
})

afterAll(async () => {
  useLogger(null)
  await stopApp()
  Bun.spawnSync(['umount', mount])
  rmSync(mount, { recursive: true, force: true })
})

describe('a full disk', () => {
  it('is seen by /healthz, refuses writes with 507 and writes nothing, and works again once space is freed', async () => {
    const signIn = () => req('POST', '/login', { json: { email, password: PASSWORD } })
    const cookie = (await signIn()).headers.get('set-cookie')!.split(';')[0]
    const join = () => req('POST', '/api/join', { json: { parent_name: 'Pat Example', email: 'pat.full-disk@example.org', unit: 'pack' } })
    const scout = () =>
      req('POST', `/api/admin/roster/households/${householdId}/scouts`, { cookie, json: { first_name: 'Robin', unit_id: 1 } })
    const healthy = await req('GET', '/healthz')
    expect(healthy.status).toBe(200)
    expect(healthy.body.checks.database.free_bytes).toBeGreaterThan(1024 * 1024)

    // Everything in the WAL goes to the database file and the WAL is emptied, so the next write must grow a file.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
    fill()
    const before = await counts()

    const health = await req('GET', '/healthz')
    expect(health.status).toBe(503)
    expect(health.body.status).toBe('unhealthy')
    expect(health.body.problems).toContain(`database: ${DISK_FULL}`)
    expect(health.body.checks.database).toMatchObject({ ok: false, required: true, error: DISK_FULL })
    expect(health.body.checks.database.free_bytes).toBeLessThan(FREE_FLOOR_BYTES)
    expect(health.body.checks.database.free_bytes).toBeLessThan(64 * 1024)
    expect(typeof health.body.checks.database.backup_free_bytes).toBe('number')

    for (const attempt of [join, signIn, scout]) {
      const res = await attempt()
      expect(res.status).toBe(507)
      expect(res.body).toEqual({ detail: DISK_FULL, code: 'disk_full' })
    }
    expect(await counts()).toEqual(before)
    const logged = lines.filter((l) => l.includes('disk.full'))
    expect(logged.length).toBeGreaterThanOrEqual(3)
    for (const line of logged) expect(line).toMatch(/SQLITE_FULL|ENOSPC/)
    expect(lines.join('\n')).not.toContain('cannot rollback')

    rmSync(filler)
    expect((await req('GET', '/healthz')).status).toBe(200)
    expect((await join()).status).toBe(201)
    expect((await signIn()).status).toBe(200)
    expect((await scout()).status).toBe(201)
    const after = await counts()
    expect(after).toMatchObject({ leads: before.leads + 1, sessions: before.sessions + 1, scouts: before.scouts + 1 })
  })

  it('refuses a start, saying so', async () => {
    const dir = path.join(mount, 'second')
    mkdirSync(dir)
    fill()
    try {
      await expect(startService({ ADMIN_TOKEN }, dir)).rejects.toThrow(`Cannot start: ${DISK_FULL}`)
    } finally {
      rmSync(filler)
    }
  })
})
