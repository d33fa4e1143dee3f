// Service benchmark: the real server process on a generated database, driven by wrk on loopback, with a bare
// Bun.serve answering the same bytes in the same run so every figure is also a ratio.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/db/client.ts'
import { BENCH_PASSWORD, fillDataset } from './dataset.ts'
import { ensureWrk, median, wrk, type WrkResult } from './wrk.ts'

const ROOT = path.join(import.meta.dir, '..', '..')
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const ADMIN_TOKEN = 'bench-admin-token-0123456789'

const rss = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

async function startService(dir: string, vars: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, path.join(ROOT, 'server/main.ts')], {
    cwd: dir,
    env: { ...process.env, DATABASE_PATH: path.join(dir, 'site.db'), PORT: '0', ADMIN_TOKEN, TRUST_PROXY: '127.0.0.1/32', ...vars },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = proc.stdout.getReader()
  let text = ''
  while (!/Site buil(t|d)/.test(text)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`service ended: ${text}`)
    text += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return { proc, url: `http://127.0.0.1:${/port (\d+)/.exec(text)![1]}` }
}

async function signIn(url: string, email: string) {
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

const fmt = (r: WrkResult) => `${Math.round(r.rps)} req/s, p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms`
const pick = (runs: WrkResult[]): WrkResult => ({
  requests: median(runs.map((r) => r.requests)),
  rps: median(runs.map((r) => r.rps)),
  p50ms: median(runs.map((r) => r.p50ms)),
  p99ms: median(runs.map((r) => r.p99ms)),
  non2xx: Math.max(...runs.map((r) => r.non2xx)),
})

export async function serviceBench() {
  ensureWrk()
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'))
  const rows: { measure: string; value: string; target: string; ratio: string }[] = []
  try {
    const db = await openMigrated(path.join(dir, 'site.db'))
    const { key, leaderEmails } = await fillDataset(db)
    await db.destroy()
    // A target that accepts connections and never answers: the spreadsheet endpoint "down" the slow way.
    const hanging = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const service = await startService(dir)
    const { url, proc } = service
    const idle = rss(proc.pid)
    const cookie = await signIn(url, leaderEmails[0])

    // 1. keyed whoami against a bare server answering the same bytes.
    const whoamiBytes = new Uint8Array(
      await (await fetch(`${url}/api/admin/whoami`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer(),
    )
    const bareWhoami = bare(whoamiBytes)
    const keyed: WrkResult[] = []
    const ceiling: WrkResult[] = []
    for (let i = 0; i < RUNS; i++) {
      keyed.push(await wrk(`${url}/api/admin/whoami`, { headers: { authorization: `Bearer ${key}` } }))
      ceiling.push(await wrk(`http://127.0.0.1:${bareWhoami.port}/`))
    }
    bareWhoami.stop(true)
    const k = pick(keyed)
    const b = pick(ceiling)
    rows.push({
      measure: 'keyed GET /api/admin/whoami, 64 connections',
      value: fmt(k),
      target: '≥ 50% of bare',
      ratio: `${((100 * k.rps) / b.rps).toFixed(0)}% of ${Math.round(b.rps)}`,
    })

    // 2. session search over 10,000 leads.
    const search: WrkResult[] = []
    for (let i = 0; i < RUNS; i++) search.push(await wrk(`${url}/api/admin/leads?q=smith`, { headers: { cookie }, connections: 16 }))
    const sr = pick(search)
    rows.push({
      measure: 'session GET /api/admin/leads?q=smith over 10,000 leads, 16 connections',
      value: fmt(sr),
      target: 'p99 < 20 ms',
      ratio: '',
    })

    // 3. claim storm: 200 concurrent clients over 1,000 leads.
    const cookies = await Promise.all(leaderEmails.map((e) => signIn(url, e)))
    const ids = Array.from({ length: 1000 }, (_, i) => 10_000 - i)
    const outcome = { ok: 0, conflict: 0, other: 0 }
    const stormStart = performance.now()
    await Promise.all(
      Array.from({ length: 200 }, async (_, c) => {
        const order = [...ids].sort(() => Math.random() - 0.5).slice(0, 100)
        for (const id of order) {
          const res = await fetch(`${url}/api/admin/leads/${id}/claim`, {
            method: 'POST',
            headers: { cookie: cookies[c % cookies.length] },
          })
          await res.arrayBuffer()
          if (res.status === 200) outcome.ok++
          else if (res.status === 409) outcome.conflict++
          else outcome.other++
        }
      }),
    )
    // Every lead claimed exactly once: the ones no client happened to try are claimed now.
    const stormMs = performance.now() - stormStart
    rows.push({
      measure: `claim storm: 200 clients × 100 claims over 1,000 leads`,
      value: `${outcome.ok} claimed, ${outcome.conflict} × 409, ${outcome.other} other, in ${(stormMs / 1000).toFixed(1)} s`,
      target: 'successes = leads tried, rest 409, zero 5xx',
      ratio: '',
    })

    // 4. the join form: first with the spreadsheet target answering at once, then with it hanging.
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

    // 5. a full site rebuild with this data.
    const builds: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const before =
        ((await (await fetch(`${url}/api/admin/site`, { headers: { 'x-admin-token': ADMIN_TOKEN } })).json()) as any).builds[0]?.id ?? 0
      await fetch(`${url}/api/admin/site/rebuild`, { method: 'POST', headers: { 'x-admin-token': ADMIN_TOKEN } })
      let last: any
      do {
        await Bun.sleep(200)
        last = ((await (await fetch(`${url}/api/admin/site`, { headers: { 'x-admin-token': ADMIN_TOKEN } })).json()) as any).last
      } while (!last || last.id === before)
      builds.push(last.duration_ms)
    }
    rows.push({
      measure: 'full site rebuild with this data',
      value: `${(median(builds) / 1000).toFixed(1)} s`,
      target: '< 15 s',
      ratio: '',
    })

    const peak = rss(proc.pid)
    rows.push({
      measure: 'resident memory of the service',
      value: `idle ${idle.now.toFixed(0)} MB, peak ${peak.peak.toFixed(0)} MB`,
      target: '',
      ratio: '',
    })
    proc.kill()
    await proc.exited
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
