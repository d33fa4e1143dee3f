// The targets of issue 33 (`npm run bench -- targets`): every admin GET of the bench data at 64 connections, creating
// announcements at 8 connections with 200 and with 10,000 rows, resident memory idle, and cold start to the first 200
// of the home page once a build exists; all on the real service with the 10× data.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Database } from 'bun:sqlite'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { fillDataset } from './dataset.ts'
import { ADMIN_TOKEN, rss, signIn, startService, type Row } from './service.ts'
import { ensureWrk, wrk } from './wrk.ts'

/** The admin GETs a leader's pages make over the bench data. */
const ADMIN_GETS = [
  '/api/admin/whoami',
  '/api/admin/summary',
  '/api/admin/leads',
  '/api/admin/leads/1',
  '/api/admin/roster',
  '/api/admin/roster/households/1',
  '/api/admin/people',
  '/api/admin/history?limit=50',
  '/api/admin/announcements',
  '/api/admin/announcements/1',
  '/api/admin/nearby',
  '/api/admin/settings',
  '/api/admin/site',
]

/** A wrk script creating scheduled announcements (so the live cap never refuses them), each with its log entry. */
function createScript(dir: string, cookie: string): string {
  const file = path.join(dir, 'create.lua')
  const day = 86_400_000
  const body = JSON.stringify({
    message: 'Bench announcement',
    starts_at: new Date(Date.now() + day).toISOString(),
    ends_at: new Date(Date.now() + 2 * day).toISOString(),
  })
  writeFileSync(
    file,
    `wrk.method = "POST"
wrk.body = '${body}'
wrk.headers["content-type"] = "application/json"
wrk.headers["cookie"] = "${cookie}"
`,
  )
  return file
}

/** Tops the announcements table up to `rows` rows (expired ones, as years of use leave), beside the running service. */
function fillAnnouncements(dbPath: string, rows: number) {
  const db = new Database(dbPath)
  db.run('PRAGMA busy_timeout = 5000')
  const have = (db.query('SELECT count(*) AS n FROM announcements').get() as { n: number }).n
  const insert = db.prepare(
    `INSERT INTO announcements (message, starts_at, ends_at, created_at, created_by, unit) VALUES (?, ?, ?, ?, 'owner@bench.example', 'both')`,
  )
  const long = new Date(Date.now() - 400 * 86_400_000).toISOString()
  const ended = new Date(Date.now() - 300 * 86_400_000).toISOString()
  db.transaction(() => {
    for (let i = have; i < rows; i++) insert.run(`Old announcement ${i}`, long, ended, long)
  })()
  db.close()
}

const siteStatus = async (url: string) =>
  (await (await fetch(`${url}/api/admin/site`, { headers: { 'x-admin-token': ADMIN_TOKEN } })).json()) as {
    building: boolean
    last: { id: number }
    builds: { id: number }[]
  }

/** Waits until no site build is asked for or under way. */
async function siteSettled(url: string) {
  while ((await siteStatus(url)).building) await Bun.sleep(200)
}

/** The CPU time, in µs, of the children a process has waited for (its site builds): cutime and cstime of /proc/PID/stat. */
function childrenCpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[13]) + Number(fields[14])) * 10_000
}

export async function targetsBench(scale = 10): Promise<Row[]> {
  ensureWrk()
  const rows: Row[] = []
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-targets-'))
  try {
    const dbPath = path.join(dir, 'site.db')
    const db = await openMigrated(dbPath)
    await fillDataset(db, scale)
    await db.destroy()
    let { url, proc } = await startService(dir)
    await Bun.sleep(2000)
    rows.push({
      measure: `resident memory of the service, idle after start (${scale}× data)`,
      value: `${rss(proc.pid).now.toFixed(0)} MB`,
      target: '< 100 MB',
      ratio: '',
    })
    const cookie = await signIn(url, 'owner@bench.example')

    const slowest: string[] = []
    for (const get of ADMIN_GETS) {
      // One request alone first: it waits out what the previous run left queued, so each run starts on an idle service.
      await (await fetch(`${url}${get}`, { headers: { cookie } })).arrayBuffer()
      const r = await wrk(`${url}${get}`, { headers: { cookie }, connections: 64, seconds: 3 })
      if (r.non2xx) throw new Error(`${get} answered ${r.non2xx} non-2xx`)
      slowest.push(`${get} ${r.timeouts ? `over 2000 (${r.timeouts} of ${r.requests + r.timeouts} timed out)` : r.p99ms.toFixed(1)}`)
    }
    rows.push({
      measure: `every admin GET of the bench data at ${scale}×, 64 connections: p99 ms`,
      value: slowest.join('; '),
      target: 'p99 < 10 ms each',
      ratio: '',
    })

    // Creating announcements as the table grows: 2 s runs, so the 200-row run ends near 1,000 rows. Then the site
    // builds the burst set off, and their CPU time (the service's finished children) per create.
    const script = createScript(dir, cookie)
    for (const size of [200, 10_000]) {
      fillAnnouncements(dbPath, size)
      await siteSettled(url)
      const lastBuild = (await siteStatus(url)).last.id
      const buildCpu = childrenCpuUs(proc.pid)
      const r = await wrk(`${url}/api/admin/announcements`, { script, connections: 8, seconds: 2 })
      if (r.non2xx) throw new Error(`announcement create answered ${r.non2xx} non-2xx`)
      await siteSettled(url)
      const builds = (await siteStatus(url)).builds.filter((b: { id: number }) => b.id > lastBuild).length
      const perCreate = (childrenCpuUs(proc.pid) - buildCpu) / 1000 / r.requests
      rows.push({
        measure: `POST /api/admin/announcements (scheduled, with its log entry), 8 connections, from ${size.toLocaleString('en-US')} rows`,
        value:
          `${Math.round(r.rps)} req/s, p50 ${r.p50ms.toFixed(1)} ms, p99 ${r.p99ms.toFixed(1)} ms; ` +
          `${builds} site build${builds === 1 ? '' : 's'} after the 2 s burst, ${perCreate.toFixed(1)} ms of build CPU per create`,
        target: '≥ 400 req/s, p99 < 50 ms',
        ratio: '',
      })
    }

    // Cold start: the service again on the same data, with the last build on disk; the time to the home page's first 200.
    proc.kill()
    await proc.exited
    const cold = await startService(dir, {}, false)
    while ((await fetch(`${cold.url}/`)).status !== 200) await Bun.sleep(5)
    rows.push({
      measure: 'cold start to the first 200 of the home page, a build on disk',
      value: `${(performance.now() - cold.spawnedAt).toFixed(0)} ms`,
      target: '< 1 s',
      ratio: '',
    })
    proc = cold.proc
    proc.kill()
    await proc.exited
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
