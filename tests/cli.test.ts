// server/cli.ts and server/main.ts as a new self-hoster runs them: create-owner, start, backup, migrate, seed-demo.
import { afterAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const dir = mkdtempSync(path.join(tmpdir(), 'site-cli-'))
const dbPath = path.join(dir, 'site.db')
const root = path.join(import.meta.dir, '..')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function cli(args: string[], stdin?: string) {
  const proc = Bun.spawnSync([process.execPath, 'server/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: dbPath },
    stdin: stdin === undefined ? 'ignore' : Buffer.from(stdin),
  })
  return { code: proc.exitCode, out: proc.stdout.toString() + proc.stderr.toString() }
}

async function waitForLine(stream: ReadableStream<Uint8Array>, pattern: RegExp): Promise<string> {
  const reader = stream.getReader()
  let text = ''
  while (!pattern.test(text)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`process ended before ${pattern}: ${text}`)
    text += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return text
}

describe('server/cli.ts', () => {
  it('migrate creates the database', () => {
    const run = cli(['migrate'])
    expect(run.code).toBe(0)
    expect(cli(['migrate']).out).toContain('up to date')
  })

  it('create-owner then main.ts gives a working service where the owner signs in', async () => {
    expect(cli(['create-owner', '--email', 'Owner@Example.org', '--password', 'a long password']).code).toBe(0)
    expect(cli(['create-owner', '--email', 'second@example.org'], 'password from stdin\n').code).toBe(0)
    expect(cli(['create-owner', '--email', 'owner@example.org', '--password', 'a long password']).code).toBe(2)
    expect(cli(['create-owner', '--email', 'x@example.org', '--password', 'short']).code).toBe(2)
    const server = Bun.spawn([process.execPath, 'server/main.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: dbPath, PORT: '0' },
      stdout: 'pipe',
    })
    try {
      const out = await waitForLine(server.stdout, /port (\d+)/)
      expect(out).not.toContain('setup/')
      const port = /port (\d+)/.exec(out)![1]
      const login = await fetch(`http://127.0.0.1:${port}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'second@example.org', password: 'password from stdin' }),
      })
      expect(login.status).toBe(200)
      const who = await fetch(`http://127.0.0.1:${port}/api/admin/whoami`, {
        headers: { cookie: login.headers.get('set-cookie')!.split(';')[0] },
      })
      expect((await who.json()).person.global_role).toBe('owner')
    } finally {
      server.kill()
      await server.exited
    }
  })

  it('backup writes a consistent copy and refuses to overwrite', () => {
    const target = path.join(dir, 'backup.db')
    expect(cli(['backup', target]).code).toBe(0)
    const copy = new Database(target, { readonly: true })
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    expect((copy.query('select count(*) as n from people').get() as any).n).toBe(2)
    copy.close()
    expect(cli(['backup', target]).code).toBe(2)
  })

  it('seed-demo prints a password for each demo person and is safe to run twice', () => {
    const first = cli(['seed-demo'])
    expect(first.code).toBe(0)
    expect(first.out).toMatch(/family@example\.org\s+password: \S{8,}/)
    expect(cli(['seed-demo']).out).toContain('exists already')
  })

  it('starts on a relative DATABASE_PATH, as `npm start` does, and builds the site before it listens', async () => {
    const server = Bun.spawn([process.execPath, path.join(root, 'server/main.ts')], {
      cwd: dir,
      env: { ...process.env, DATABASE_PATH: 'relative/site.db', PORT: '0' },
      stdout: 'pipe',
    })
    try {
      const out = await waitForLine(server.stdout, /port (\d+)/)
      expect(out).toMatch(/Site built in \d+ ms\n.*Listening on/s)
      const port = /port (\d+)/.exec(out)![1]
      const home = await fetch(`http://127.0.0.1:${port}/`)
      expect(home.status).toBe(200)
      expect(await home.text()).toContain('Cub Scout Pack')
      expect((await fetch(`http://127.0.0.1:${port}/admin/`)).status).toBe(200)
    } finally {
      server.kill()
      await server.exited
    }
  }, 30_000)

  it('prints a one-time setup link on a first start with no owner', async () => {
    const fresh = path.join(dir, 'fresh.db')
    const server = Bun.spawn([process.execPath, 'server/main.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: fresh, PORT: '0' },
      stdout: 'pipe',
    })
    try {
      const out = await waitForLine(server.stdout, /setup\/[\w-]{40,}/)
      expect(out).toMatch(/\/setup\/[\w-]{40,}/)
    } finally {
      server.kill()
      await server.exited
    }
  })

  it('restore puts a backup in place of the database and keeps the replaced file; one line and exit 1 when it cannot', () => {
    const people = (file: string) => {
      const db = new Database(file, { readonly: true })
      const n = (db.query('select count(*) as n from people').get() as any).n
      db.close()
      return n
    }
    const seeded = people(dbPath)
    expect(seeded).toBeGreaterThan(2) // seed-demo ran after the backup
    for (const args of [['restore'], ['restore', path.join(dir, 'no-such-backup.db')]]) {
      const refused = cli(args)
      expect(refused.code).toBe(1)
      expect(refused.out.trim().split('\n')).toHaveLength(1)
    }
    const run = cli(['restore', path.join(dir, 'backup.db')])
    expect(run.code).toBe(0)
    expect(run.out).toMatch(/^Restored .+ from .+backup\.db; the replaced database is kept as .+\n$/)
    expect(people(dbPath)).toBe(2)
    expect(people(/kept as (\S+)\n$/.exec(run.out)![1])).toBe(seeded)
  })
})
