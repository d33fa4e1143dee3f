// Service benchmark: the real server process on a generated database, driven by wrk on loopback, with a bare
// Bun.serve answering the same bytes in the same run so every figure is also a ratio.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { addressRules } from '../../server/auth/address.ts'
import { sha256 } from '../../server/auth/tokens.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { requestPath } from '../../server/http/request-path.ts'
import { Logger } from '../../server/ops/log.ts'
import { BufferedOutput } from '../../server/ops/output.ts'
import { BENCH_PASSWORD, fillDataset, sizeOf } from './dataset.ts'
import { compare, cpuUsedUs, ensureWrk, median, percent, shareOf, wrk, type WrkResult } from './wrk.ts'

const ROOT = path.join(import.meta.dir, '..', '..')
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef'
const TRUST_PROXY = '127.0.0.1/32'

export const rss = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

/** Starts the service on `dir`'s database; with `settle`, waits for its first build and catch-up backup. */
export async function startService(dir: string, vars: Record<string, string> = {}, settle = true) {
  const spawnedAt = performance.now()
  const proc = Bun.spawn([process.execPath, path.join(ROOT, 'server/main.ts')], {
    cwd: dir,
    env: {
      ...process.env,
      DATABASE_PATH: path.join(dir, 'site.db'),
      PORT: '0',
      ADMIN_TOKEN,
      TRUST_PROXY,
      OUTBOUND_ALLOW: '127.0.0.1/32',
      ...vars,
    },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = proc.stdout.getReader()
  let text = ''
  while (!/port (\d+)/.test(text)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`service ended: ${text}`)
    text += new TextDecoder().decode(value)
  }
  // Keep reading so the service never blocks on a full pipe (it logs every request).
  void (async () => {
    while (!(await reader.read()).done);
  })()
  const url = `http://127.0.0.1:${/port (\d+)/.exec(text)![1]}`
  if (!settle) return { proc, url, spawnedAt }
  // Ready once the first site build is done, and the catch-up backup a new database gets soon after start: it
  // holds the database while it tidies and copies it (300 MB at 100×), which a unit's service does at night.
  while (!((await (await fetch(`${url}/api/admin/site`, { headers: { 'x-admin-token': ADMIN_TOKEN } })).json()) as any).last)
    await Bun.sleep(100)
  while (!((await (await fetch(`${url}/healthz`)).json()) as any).checks.backup.last_at) await Bun.sleep(200)
  return { proc, url, spawnedAt }
}

export async function signIn(url: string, email: string) {
  const res = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  })
  return res.headers.get('set-cookie')!.split(';')[0]
}

/** A bare Bun.serve answering `bytes` for every request: the ceiling of this machine for that answer. */
function bare(bytes: Uint8Array<ArrayBuffer>, status = 200) {
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response(bytes, { status, headers: { 'content-type': 'application/json' } }),
  })
}

/**
 * The least a keyed whoami can cost on this runtime: a bare Bun.serve doing only the work its answer needs, with no
 * framework and no request state. It reads the path and Host, looks for the break-glass header, parses the
 * bearer key, hashes and looks it up, and checks the client address against the LAN rule of `api_keys_from`. Then it
 * answers with the service's headers and a JSON text made once per key (less than the service does: it makes the
 * text per request), and leaves the request's log line, as the service must for every request. Its share of bare is
 * a ceiling for the service's.
 */
function requiredWork(key: string, answer: string) {
  const env = readEnv({ TRUST_PROXY })
  const rules = addressRules(env.trustProxy, env.lanCidrs)
  const keys = new Map([[sha256(key), { answer, expiresAt: null as number | null }]])
  const headers = new Headers({
    'content-type': 'application/json;charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  })
  const log = new Logger('text', new BufferedOutput(Bun.file('/dev/null').writer()).write)
  const refuse = (status: number) => Response.json({ detail: 'refused' }, { status })
  const server: Bun.Server<undefined> = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const started = performance.now()
      const url = request.url
      if (requestPath(request, url) !== '/api/admin/whoami') return refuse(404)
      if (request.headers.get('x-admin-token') !== null) return refuse(403)
      const secret = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
      const known = secret && keys.get(sha256(secret))
      if (!known || (known.expiresAt !== null && known.expiresAt <= Date.now())) return refuse(401)
      const address = rules.clientAddress(server.requestIP(request)?.address ?? null, request.headers)
      if (!rules.isLan(address)) return refuse(403)
      const response = new Response(known.answer, { status: 200, headers })
      log.request(request.method, url, 200, started, 'key')
      return response
    },
  })
  return server
}

const fmt = (r: { rps: number; p50ms: number; p99ms: number }) =>
  `${Math.round(r.rps)} req/s, p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms`
const pick = (runs: WrkResult[]): WrkResult => ({
  requests: median(runs.map((r) => r.requests)),
  rps: median(runs.map((r) => r.rps)),
  p50ms: median(runs.map((r) => r.p50ms)),
  p99ms: median(runs.map((r) => r.p99ms)),
  non2xx: Math.max(...runs.map((r) => r.non2xx)),
  timeouts: Math.max(...runs.map((r) => r.timeouts)),
})

/** Milliseconds one request takes, the median and the slowest of `n`. */
async function timed(n: number, request: () => Promise<Response>) {
  const ms: number[] = []
  for (let i = 0; i < n; i++) {
    const start = performance.now()
    const res = await request()
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`HTTP ${res.status}`)
    ms.push(performance.now() - start)
  }
  return { median: median(ms), max: Math.max(...ms) }
}

export interface Row {
  measure: string
  value: string
  target: string
  ratio: string
}

/** One measure at each size: `values[size]`. */
export interface Growth {
  measure: string
  values: Record<string, string>
  target: string
}

export async function serviceBench(scales = [1, 10, 100]) {
  ensureWrk()
  const rows: Row[] = []
  const growth = new Map<string, Growth>()
  const grow = (measure: string, scale: number, value: string, target = '') => {
    const g = growth.get(measure) ?? { measure, values: {}, target }
    g.values[`${scale}×`] = value
    if (target) g.target = target
    growth.set(measure, g)
  }
  for (const scale of scales) {
    const size = sizeOf(scale)
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-'))
    try {
      const db = await openMigrated(path.join(dir, 'site.db'))
      const filling = performance.now()
      const { key, leaderEmails } = await fillDataset(db, scale)
      await db.destroy()
      console.log(`${scale}×: filled in ${((performance.now() - filling) / 1000).toFixed(1)} s`)
      const { url, proc } = await startService(dir)
      const idle = rss(proc.pid)
      const cookie = await signIn(url, leaderEmails[0])
      const token = { 'x-admin-token': ADMIN_TOKEN }

      // Keyed whoami against a bare server answering the same bytes, and against the work its answer needs alone.
      const keyed = { authorization: `Bearer ${key}` }
      const whoamiBytes = new Uint8Array(await (await fetch(`${url}/api/admin/whoami`, { headers: keyed })).arrayBuffer())
      const bareWhoami = bare(whoamiBytes)
      const floor = requiredWork(key, new TextDecoder().decode(whoamiBytes))
      const [b, k, f] = await compare(
        [
          { url: `http://127.0.0.1:${bareWhoami.port}/`, cpuUs: () => cpuUsedUs() },
          { url: `${url}/api/admin/whoami`, cpuUs: () => cpuUsedUs(proc.pid) },
          { url: `http://127.0.0.1:${floor.port}/api/admin/whoami`, cpuUs: () => cpuUsedUs() },
        ],
        { headers: keyed, seconds: 2 },
      )
      bareWhoami.stop(true)
      floor.stop(true)
      grow(
        'keyed GET /api/admin/whoami (64 connections): share of a bare Bun.serve; the work its answer needs, alone',
        scale,
        `${percent(k.share)} (${Math.round(k.rps)} of ${Math.round(b.rps)} req/s; CPU per answer ${percent(k.cpuShare)}); ` +
          `needed work alone ${percent(f.share)} (CPU ${percent(f.cpuShare)})`,
        '≥ 60%',
      )
      if (scale === 1)
        rows.push({
          measure: 'keyed GET /api/admin/whoami, 64 connections',
          value: fmt(k),
          target: '≥ 60% of bare',
          ratio: `${shareOf(k, b)}; the work its answer needs, alone: ${percent(f.share)} (CPU ${percent(f.cpuShare)})`,
        })

      // Lead search, a common name (a tenth of the leads match) and a rare one: as a leader waits for it (one
      // search at a time, the target), and with 16 at once, where the wait is mostly the queue. Beside it, a bare
      // server asked one at a time between the runs: the machine's own jitter, which a p99 of a few ms includes.
      const floorServer = bare(new TextEncoder().encode('{}'))
      for (const [q, what] of [
        ['smith', 'a name a tenth of the leads have'],
        [`parent${size.leads - 7}@`, 'one lead'],
      ]) {
        const at = `${url}/api/admin/leads?q=${encodeURIComponent(q)}`
        const alone: WrkResult[] = []
        const crowd: WrkResult[] = []
        const floor: WrkResult[] = []
        for (let i = 0; i < RUNS; i++) {
          alone.push(await wrk(at, { headers: { cookie }, connections: 1 }))
          floor.push(await wrk(`http://127.0.0.1:${floorServer.port}/`, { connections: 1 }))
          crowd.push(await wrk(at, { headers: { cookie }, connections: 16 }))
        }
        grow(
          `lead search, ${what}: one at a time`,
          scale,
          `p99 ${pick(alone).p99ms.toFixed(2)} ms (p50 ${pick(alone).p50ms.toFixed(2)} ms; bare server p99 ${pick(floor).p99ms.toFixed(2)} ms)`,
          'p99 < 5 ms at 10×, < 20 ms at 100×',
        )
        grow(`lead search, ${what}: 16 at once`, scale, `p99 ${pick(crowd).p99ms.toFixed(2)} ms, ${Math.round(pick(crowd).rps)} req/s`)
      }
      floorServer.stop(true)

      // History: the first page, a page deep in the log, and the whole log as CSV.
      const first: WrkResult[] = []
      const deep: WrkResult[] = []
      const middle = new Date(Date.now() - (size.history / 2) * 30_000).toISOString()
      for (let i = 0; i < RUNS; i++) {
        first.push(await wrk(`${url}/api/admin/history?limit=50`, { headers: token, connections: 16 }))
        deep.push(await wrk(`${url}/api/admin/history?limit=50&before=${middle}`, { headers: token, connections: 16 }))
      }
      grow('history, first page of 50 (16 connections)', scale, `p99 ${pick(first).p99ms.toFixed(2)} ms`)
      grow('history, a page half way back (16 connections)', scale, `p99 ${pick(deep).p99ms.toFixed(2)} ms`)
      const before = rss(proc.pid).now
      const csv = await timed(1, () => fetch(`${url}/api/admin/history/export`, { headers: token }))
      grow(
        'history CSV of the whole log',
        scale,
        `${(csv.median / 1000).toFixed(1)} s; service memory ${before.toFixed(0)} → peak ${rss(proc.pid).peak.toFixed(0)} MB`,
        'memory flat',
      )

      // Lists that must not grow with the square of the data.
      const roster = await timed(3, () => fetch(`${url}/api/admin/roster`, { headers: { cookie } }))
      grow(`GET /api/admin/roster (${size.households.toLocaleString('en-US')} households)`, scale, `${roster.median.toFixed(0)} ms`)
      const people = await timed(3, () => fetch(`${url}/api/admin/people`, { headers: { cookie } }))
      grow(`GET /api/admin/people (${(size.families + 21).toLocaleString('en-US')} accounts)`, scale, `${people.median.toFixed(0)} ms`)

      if (scale === 1) {
        await claimStorm(url, leaderEmails, size.leads, rows)
        await joinForm(url, dir, cookie, rows)
      }

      // A full site rebuild with this data.
      const builds: number[] = []
      for (let i = 0; i < RUNS; i++) {
        const before = ((await (await fetch(`${url}/api/admin/site`, { headers: token })).json()) as any).builds[0]?.id ?? 0
        await fetch(`${url}/api/admin/site/rebuild`, { method: 'POST', headers: token })
        let last: any
        do {
          await Bun.sleep(200)
          last = ((await (await fetch(`${url}/api/admin/site`, { headers: token })).json()) as any).last
        } while (!last || last.id === before)
        builds.push(last.duration_ms)
      }
      grow('full site rebuild', scale, `${(median(builds) / 1000).toFixed(1)} s`, '< 15 s at 100×')
      const peak = rss(proc.pid)
      grow('resident memory of the service', scale, `idle ${idle.now.toFixed(0)} MB, peak ${peak.peak.toFixed(0)} MB`)
      proc.kill()
      await proc.exited
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  return { rows, growth: [...growth.values()] }
}

/** 200 concurrent clients claim 100 random leads each out of the newest 1,000: one 200 per lead, the rest 409. */
async function claimStorm(url: string, leaderEmails: string[], leads: number, rows: Row[]) {
  const cookies = await Promise.all(leaderEmails.map((e) => signIn(url, e)))
  const ids = Array.from({ length: 1000 }, (_, i) => leads - i)
  const outcome = { ok: 0, conflict: 0, other: 0 }
  const stormStart = performance.now()
  await Promise.all(
    Array.from({ length: 200 }, async (_, c) => {
      const order = [...ids].sort(() => Math.random() - 0.5).slice(0, 100)
      for (const id of order) {
        const res = await fetch(`${url}/api/admin/leads/${id}/claim`, { method: 'POST', headers: { cookie: cookies[c % cookies.length] } })
        await res.arrayBuffer()
        if (res.status === 200) outcome.ok++
        else if (res.status === 409) outcome.conflict++
        else outcome.other++
      }
    }),
  )
  const stormMs = performance.now() - stormStart
  rows.push({
    measure: `claim storm: 200 clients × 100 claims over 1,000 leads`,
    value: `${outcome.ok} claimed, ${outcome.conflict} × 409, ${outcome.other} other, in ${(stormMs / 1000).toFixed(1)} s`,
    target: 'successes = leads tried, rest 409, zero 5xx',
    ratio: '',
  })
}

/** The join form with the spreadsheet target answering at once, then hanging: nothing lost, p99 unaffected. */
async function joinForm(url: string, dir: string, cookie: string, rows: Row[]) {
  // A target that accepts connections and never answers: the spreadsheet endpoint "down" the slow way.
  const hanging = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const lua = path.join(dir, 'join.lua')
  writeFileSync(
    lua,
    `counter = 0
request = function()
  counter = counter + 1
  local body = '{"parent_name":"Bench Parent","email":"bench' .. counter .. '@example.org"}'
  return wrk.format("POST", "/api/join", { ["content-type"] = "application/json", ["x-forwarded-for"] = "10." .. (counter % 250) .. "." .. math.floor(counter / 250) % 250 .. "." .. math.random(1, 250) }, body)
end`,
  )
  const target = (value: string) =>
    fetch(`${url}/api/admin/settings/mirrors.spreadsheet_url`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ value }),
    })
  const sheet = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => Response.json({ result: 'success' }) })
  const leadsBefore = Number((await (await fetch(`${url}/api/admin/summary`, { headers: { cookie } })).json()).leads.total)
  await target(`http://127.0.0.1:${sheet.port}/exec`)
  const joinFree = await wrk(`${url}/`, { script: lua, connections: 16, seconds: 3 })
  await target(`http://127.0.0.1:${hanging.port}/exec`)
  const joinDown = await wrk(`${url}/`, { script: lua, connections: 16, seconds: 3 })
  sheet.stop(true)
  await Bun.sleep(6000) // let the copies time out
  const summary = (await (await fetch(`${url}/api/admin/summary`, { headers: { cookie } })).json()) as any
  const accepted = Math.round(joinFree.requests - joinFree.non2xx + joinDown.requests - joinDown.non2xx)
  rows.push({
    measure: 'POST /api/join, spreadsheet target up → hanging (16 connections)',
    value: `${fmt(joinFree)} → ${fmt(joinDown)}; ${summary.leads.total - leadsBefore} leads stored for ${accepted} accepted`,
    target: 'none lost; p99 unaffected',
    ratio: `p99 ${(joinDown.p99ms / joinFree.p99ms).toFixed(2)}×`,
  })
  hanging.stop(true)
}
