// A database file that SQLite cannot read stops the start with one sentence naming the backup to restore, not a stack.
import { afterAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'

const MAIN = path.join(import.meta.dir, '..', '..', 'server', 'main.ts')
const dir = mkdtempSync(path.join(tmpdir(), 'damaged-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const start = (databasePath: string) =>
  Bun.spawnSync([process.execPath, MAIN], { cwd: dir, env: { ...process.env, DATABASE_PATH: databasePath, PORT: '0' } })

describe('starting on a damaged database', () => {
  it('exits 1 with one sentence naming restore and the newest backup', async () => {
    const databasePath = path.join(dir, 'site.db')
    const db = await openMigrated(databasePath)
    await db.destroy()
    mkdirSync(path.join(dir, 'backups'))
    const older = path.join(dir, 'backups', 'site-2026-11-20T030000Z.db')
    const newest = path.join(dir, 'backups', 'site-2026-11-21T030000Z.db')
    for (const copy of [older, newest]) copyFileSync(databasePath, copy)
    // Pages in the middle of the file overwritten, as a failing disk leaves them.
    const fd = openSync(databasePath, 'r+')
    writeSync(fd, Buffer.alloc(8192, 0xff), 0, 8192, 4096 * 3)
    closeSync(fd)
    const run = start(databasePath)
    expect(run.exitCode).toBe(1)
    const said = run.stderr.toString()
    expect(said.trim().split('\n')).toHaveLength(1)
    expect(said).toStartWith(`Cannot start: ${databasePath} cannot be read as a database`)
    expect(said).toContain(`bun server/cli.ts restore ${newest}`)
    expect(said).not.toContain('    at ')
  })

  it('says so for a file that is not a database at all, and that no backup is there', async () => {
    const databasePath = path.join(dir, 'notes.db')
    await Bun.write(databasePath, 'these are not the droids '.repeat(400))
    const run = start(databasePath)
    expect(run.exitCode).toBe(1)
    expect(run.stderr.toString()).toBe(
      `Cannot start: ${databasePath} cannot be read as a database (file is not a database), and ${path.join(dir, 'backups')} holds no backup of it; restore a copy from elsewhere with: bun server/cli.ts restore PATH\n`,
    )
  })
})
