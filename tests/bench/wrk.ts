// Load generation with wrk on loopback: requests per second and latency percentiles, installed when missing; and
// servers compared in rounds of runs, by throughput and by CPU time per answer.
import { readFileSync } from 'node:fs'

export interface WrkResult {
  rps: number
  requests: number
  p50ms: number
  p99ms: number
  non2xx: number
  /** Requests wrk gave up on after its 2 s timeout: not in the percentiles, so a p99 is only honest when this is 0. */
  timeouts: number
}

export function ensureWrk() {
  if (Bun.which('wrk')) return
  console.log('Installing wrk (Debian package) …')
  const sudo = process.getuid?.() === 0 ? [] : ['sudo']
  Bun.spawnSync([...sudo, 'apt-get', 'install', '-y', '-qq', 'wrk'], { stdout: 'ignore', stderr: 'inherit' })
  if (!Bun.which('wrk')) throw new Error('wrk is not installed and could not be installed')
}

const ms = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit]

export interface WrkOptions {
  connections?: number
  seconds?: number
  headers?: Record<string, string>
  script?: string
}

/** Runs wrk in a child process; async, so servers in this process keep answering meanwhile. */
export async function wrk(url: string, options: WrkOptions = {}): Promise<WrkResult> {
  const args = ['wrk', '-t1', `-c${options.connections ?? 64}`, `-d${options.seconds ?? 5}s`, '--latency']
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}: ${v}`)
  if (options.script) args.push('-s', options.script)
  const child = Bun.spawn([...args, url], { stdout: 'pipe' })
  const out = await new Response(child.stdout).text()
  await child.exited
  const pct = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out)
    return m ? ms(m[1], m[2]) : NaN
  }
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    p50ms: pct('50'),
    p99ms: pct('99'),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    timeouts: Number(/timeout (\d+)/.exec(out)?.[1] ?? 0),
  }
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Rounds of runs in `compare` (BENCH_ROUNDS): one run against each server per round. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9)

/**
 * The CPU time a process has used so far, in µs: this one, or a child by its pid (from /proc/PID/stat, whose utime
 * and stime count clock ticks of 10 ms).
 */
export function cpuUsedUs(pid?: number): number {
  if (pid === undefined) {
    const used = process.cpuUsage()
    return used.user + used.system
  }
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

export interface Contender {
  url: string
  /** The CPU time its process has used so far (`cpuUsedUs`): each server is measured alone, so all of it is its own. */
  cpuUs: () => number
}

export interface Standing {
  rps: number
  p50ms: number
  p99ms: number
  /** CPU time per answer, µs. */
  cpuUs: number
  /** Throughput, and CPU time per answer, as shares of the first contender's (the bare server): medians of per-round shares. */
  share: number
  cpuShare: number
}

/**
 * `ROUNDS` rounds of one wrk run against each contender, in an order that turns by one each round. A round's runs
 * are seconds apart, so a machine that slows down for a while (a shared host) moves them all: each share is the
 * median of per-round shares. Throughput is what the targets name; CPU time per answer, which time stolen by other
 * guests does not inflate, is given beside it.
 */
export async function compare(contenders: Contender[], options: WrkOptions): Promise<Standing[]> {
  const runs = contenders.map(() => [] as (WrkResult & { cpuUs: number })[])
  for (let round = 0; round < ROUNDS; round++)
    for (let turn = 0; turn < contenders.length; turn++) {
      const c = (round + turn) % contenders.length
      const before = contenders[c].cpuUs()
      const run = await wrk(contenders[c].url, options)
      runs[c].push({ ...run, cpuUs: (contenders[c].cpuUs() - before) / run.requests })
    }
  const [bare] = runs
  return runs.map((own) => ({
    rps: median(own.map((r) => r.rps)),
    p50ms: median(own.map((r) => r.p50ms)),
    p99ms: median(own.map((r) => r.p99ms)),
    cpuUs: median(own.map((r) => r.cpuUs)),
    share: median(own.map((r, i) => r.rps / bare[i].rps)),
    cpuShare: median(own.map((r, i) => bare[i].cpuUs / r.cpuUs)),
  }))
}

/** A share as a whole percentage: `86%`. */
export const percent = (share: number) => `${(100 * share).toFixed(0)}%`

/** `86% of 41185 req/s (median of 9 rounds); CPU per answer 85% (22.8 of 27.1 µs)` */
export const shareOf = (own: Standing, bare: Standing) =>
  `${percent(own.share)} of ${Math.round(bare.rps)} req/s (median of ${ROUNDS} rounds); ` +
  `CPU per answer ${percent(own.cpuShare)} (${bare.cpuUs.toFixed(1)} of ${own.cpuUs.toFixed(1)} µs)`
