// Crash safety: a write storm against a real server process killed with SIGKILL; afterwards every acknowledged
// write is there with its action-log entry, nothing is half-written, and backups taken meanwhile are consistent.
import { describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ADMIN_TOKEN } from '../helpers.ts'

const root = path.join(import.meta.dir, '..', '..')

async function start(dbPath: string) {
  const proc = Bun.spawn([process.execPath, path.join(root, 'server/main.ts')], {
    cwd: path.dirname(dbPath),
    env: { ...process.env, DATABASE_PATH: dbPath, PORT: '0', ADMIN_TOKEN },
    stdout: 'pipe',
    stderr: 'ignore',
  })
  const reader = proc.stdout.getReader()
  let text = ''
  while (!/port (\d+)/.test(text)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`server ended: ${text}`)
    text += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return { proc, url: `http://127.0.0.1:${/port (\d+)/.exec(text)![1]}` }
}

/** Rows of `nearby_units` without their `nearby.create` entry, and acknowledged ids that are missing. */
function audit(file: string, acknowledged: number[]) {
  const db = new Database(file, { readonly: true })
  const integrity = (db.query('PRAGMA integrity_check').get() as any).integrity_check
  const rows = db.query('select id, name from nearby_units').all() as { id: number; name: string }[]
  const ids = new Set(rows.map((r) => r.id))
  // Each storm row has its own name, which its entry names: "Added Storm 3-14 (Scouts BSA troop)".
  const loggedNames = new Set(
    (db.query("select summary from action_log where kind = 'nearby.create'").all() as { summary: string }[]).map(
      (r) => /^Added (.+) \(/.exec(r.summary)![1],
    ),
  )
  const logged = new Set(rows.filter((r) => loggedNames.has(r.name)).map((r) => r.id))
  db.close()
  return {
    integrity,
    rows: ids.size,
    missing: acknowledged.filter((id) => !ids.has(id)),
    withoutLog: [...ids].filter((id) => !logged.has(id)),
    logWithoutRow: [...logged].filter((id) => !ids.has(id)),
  }
}

describe('crash safety', () => {
  it('keeps every acknowledged write with its log entry after SIGKILL, and backups taken during writes are consistent', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crash-'))
    const dbPath = path.join(dir, 'site.db')
    try {
      const { proc, url } = await start(dbPath)
      const acknowledged: number[] = []
      let stop = false
      const writer = async (n: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await fetch(`${url}/api/admin/nearby`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
              body: JSON.stringify({ name: `Storm ${n}-${i}`, unit_type: 'troop' }),
            })
            if (res.status === 201) acknowledged.push((await res.json()).id)
          } catch {
            return // the server is gone
          }
        }
      }
      const writers = Array.from({ length: 16 }, (_, n) => writer(n))
      await Bun.sleep(700)
      // Backups while the storm goes on.
      const backups = [path.join(dir, 'backup-1.db'), path.join(dir, 'backup-2.db')]
      for (const target of backups) {
        const cli = Bun.spawnSync([process.execPath, path.join(root, 'server/cli.ts'), 'backup', target], {
          env: { ...process.env, DATABASE_PATH: dbPath },
        })
        expect(cli.exitCode).toBe(0)
        await Bun.sleep(200)
      }
      proc.kill('SIGKILL')
      await proc.exited
      stop = true
      await Promise.all(writers)
      expect(acknowledged.length).toBeGreaterThan(50)

      const after = audit(dbPath, acknowledged)
      expect(after.integrity).toBe('ok')
      expect(after.missing).toEqual([])
      expect(after.withoutLog).toEqual([])
      expect(after.logWithoutRow).toEqual([])

      for (const backup of backups) {
        const copy = audit(backup, [])
        expect(copy.integrity).toBe('ok')
        expect(copy.rows).toBeGreaterThan(0)
        expect(copy.withoutLog).toEqual([])
        expect(copy.logWithoutRow).toEqual([])
      }

      // And the service starts again on the killed database.
      const again = await start(dbPath)
      const res = await fetch(`${again.url}/api/admin/nearby`, { headers: { 'x-admin-token': ADMIN_TOKEN } })
      expect(res.status).toBe(200)
      expect((await res.json()).nearby.length).toBe(after.rows)
      again.proc.kill()
      await again.proc.exited
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
