// The real service as a process (`bun server/main.ts`) on a temporary database and port 0, its stdout kept
// and drained so it never blocks on its output; for tests of logs, health and stopping.
import { mkdtempSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Subprocess } from 'bun'

const MAIN = path.join(import.meta.dir, '..', 'server', 'main.ts')

export interface ServiceProcess {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  url: string
  port: number
  dir: string
  databasePath: string
  /** Everything the service printed on stdout so far. */
  output(): string
  /** Waits until stdout matches `pattern` (after `from` characters); throws when the process ends first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number, from?: number): Promise<string>
  /** SIGTERM, then the exit code. */
  stop(): Promise<number>
}

/** Starts the service in `dir` (a new temporary folder by default) and waits for its "Listening on … (port N" line. */
export async function startService(
  vars: Record<string, string> = {},
  dir = mkdtempSync(path.join(tmpdir(), 'service-')),
): Promise<ServiceProcess> {
  const databasePath = path.join(dir, 'site.db')
  const proc = Bun.spawn([process.execPath, MAIN], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', DATABASE_PATH: databasePath, PORT: '0', ...vars },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let out = ''
  let ended = false
  void (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of proc.stdout) out += decoder.decode(chunk, { stream: true })
    ended = true
  })()
  const waitFor = async (pattern: RegExp, ms = 60_000, from = 0) => {
    const deadline = Date.now() + ms
    while (!pattern.test(out.slice(from))) {
      if (ended || proc.exitCode !== null)
        throw new Error(`the service ended before ${pattern}: ${out}${await new Response(proc.stderr).text()}`)
      if (Date.now() > deadline) throw new Error(`no ${pattern} within ${ms} ms: ${out}`)
      await Bun.sleep(20)
    }
    return out.slice(from)
  }
  // A first start builds the site before it listens: a minute or more with every core busy.
  const port = Number(/\(port (\d+)/.exec(await waitFor(/\(port \d+/, 150_000))![1])
  return {
    proc,
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    databasePath,
    output: () => out,
    waitFor,
    async stop() {
      proc.kill('SIGTERM')
      return proc.exited
    },
  }
}

/** Whether a new TCP connection to the port is refused. */
export const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.on('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.on('error', () => resolve(true))
  })

/**
 * A request held open: the headers and the first part of the body are sent now, the rest by `finish()`, which
 * resolves with the raw answer (empty when the server closed the connection without one).
 */
export async function heldRequest(port: number, method: string, target: string, body: string) {
  const socket = net.connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => socket.on('connect', resolve).on('error', reject))
  let raw = ''
  socket.on('data', (d) => (raw += d))
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(raw)))
  socket.on('error', () => {})
  const half = Math.floor(body.length / 2)
  socket.write(
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  )
  return {
    /** Sends the rest of the body and resolves with the raw answer once the server closes the connection. */
    finish(): Promise<string> {
      socket.write(body.slice(half))
      return closed
    },
    /** Resolves with whatever came back once the server closes the connection (without the rest of the body). */
    closed,
  }
}

/** Makes the database in `dir` with an owner account, through the CLI as an operator would. */
export function createOwner(dir: string, email: string, password: string) {
  const made = Bun.spawnSync([process.execPath, 'server/cli.ts', 'create-owner', '--email', email, '--password', password], {
    cwd: path.join(import.meta.dir, '..'),
    env: { ...process.env, DATABASE_PATH: path.join(dir, 'site.db') },
  })
  if (made.exitCode !== 0) throw new Error(`create-owner failed: ${made.stderr.toString()}`)
}

/** Signs the owner in on a running service and invites each address with a mail; throws on any refusal. */
export async function inviteByMail(url: string, owner: { email: string; password: string }, emails: string[]) {
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(owner),
  })
  const cookie = login.headers.get('set-cookie')!.split(';')[0]
  for (const email of emails) {
    const res = await fetch(`${url}/api/admin/people/invite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ email, send_email: true }),
    })
    if (res.status !== 201) throw new Error(`invite ${email}: ${res.status} ${await res.text()}`)
  }
}
