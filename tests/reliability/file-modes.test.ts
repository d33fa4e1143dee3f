// The database, its WAL and shared memory, the backups and the folders holding them are readable by the service's
// user only (0600 and 0700), whatever umask the service or the CLI was started with; older files are tightened.
import { afterAll, describe, expect, it } from 'bun:test'
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startService } from '../service-process.ts'

const root = path.join(import.meta.dir, '..', '..')
const dir = mkdtempSync(path.join(tmpdir(), 'file-modes-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const modeOf = (file: string) => statSync(file).mode & 0o777
/** Runs `run` with the loose umask a default Debian login has, so child processes inherit it. */
async function underUmask022<T>(run: () => Promise<T> | T): Promise<T> {
  const before = process.umask(0o022)
  try {
    return await run()
  } finally {
    process.umask(before)
  }
}

describe('file modes', () => {
  it('the CLI creates the database folder, the database, its WAL and a backup owner-only under umask 022', async () => {
    const data = path.join(dir, 'cli', 'data')
    const dbPath = path.join(data, 'site.db')
    const backup = path.join(dir, 'cli', 'copies', 'site-copy.db')
    await underUmask022(() => {
      const run = (args: string[]) =>
        Bun.spawnSync([process.execPath, 'server/cli.ts', ...args], { cwd: root, env: { ...process.env, DATABASE_PATH: dbPath } })
      expect(run(['create-owner', '--email', 'modes@example.org', '--password', 'a good long password']).exitCode).toBe(0)
      expect(run(['backup', backup]).exitCode).toBe(0)
    })
    expect(modeOf(data)).toBe(0o700)
    expect(modeOf(dbPath)).toBe(0o600)
    for (const file of readdirSync(data).filter((f) => f.startsWith('site.db'))) expect(modeOf(path.join(data, file)), file).toBe(0o600)
    expect(modeOf(path.dirname(backup))).toBe(0o700)
    expect(modeOf(backup)).toBe(0o600)
  })

  it('the service keeps them owner-only too, tightens a database an older version left open, and writes its backups owner-only', async () => {
    const home = path.join(dir, 'service')
    const dbPath = path.join(home, 'site.db')
    // An install from before: the database readable by everyone.
    await underUmask022(() => {
      const made = Bun.spawnSync([process.execPath, 'server/cli.ts', 'migrate'], {
        cwd: root,
        env: { ...process.env, DATABASE_PATH: dbPath },
      })
      expect(made.exitCode).toBe(0)
    })
    chmodSync(dbPath, 0o644)
    const service = await underUmask022(() => startService({}, home))
    try {
      await service.waitFor(/backup\.run ok=true/, 30_000) // the catch-up backup a fresh install takes
      for (const file of readdirSync(home).filter((f) => f.startsWith('site.db'))) expect(modeOf(path.join(home, file)), file).toBe(0o600)
      const backups = path.join(home, 'backups')
      expect(modeOf(backups)).toBe(0o700)
      const copies = readdirSync(backups)
      expect(copies.length).toBeGreaterThan(0)
      // A backup is the database copy (0600) and the folder of the uploaded files beside it (0700, its files 0600).
      const walk = (at: string): void => {
        const folder = statSync(at).isDirectory()
        expect(modeOf(at), at).toBe(folder ? 0o700 : 0o600)
        if (folder) for (const inside of readdirSync(at)) walk(path.join(at, inside))
      }
      for (const file of copies) walk(path.join(backups, file))
    } finally {
      expect(await service.stop()).toBe(0)
    }
  }, 60_000)
})
