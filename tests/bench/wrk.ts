// Load generation with wrk on loopback: requests per second and latency percentiles, installed when missing.
export interface WrkResult {
  rps: number
  requests: number
  p50ms: number
  p99ms: number
  non2xx: number
}

export function ensureWrk() {
  if (Bun.which('wrk')) return
  console.log('Installing wrk (Debian package) …')
  const sudo = process.getuid?.() === 0 ? [] : ['sudo']
  Bun.spawnSync([...sudo, 'apt-get', 'install', '-y', '-qq', 'wrk'], { stdout: 'ignore', stderr: 'inherit' })
  if (!Bun.which('wrk')) throw new Error('wrk is not installed and could not be installed')
}

const ms = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit]

/** Runs wrk in a child process; async, so servers in this process keep answering meanwhile. */
export async function wrk(
  url: string,
  options: { connections?: number; seconds?: number; headers?: Record<string, string>; script?: string } = {},
): Promise<WrkResult> {
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
  }
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
