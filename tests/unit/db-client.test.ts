// The database client: transactions one at a time over the one connection, statements kept by their SQL text and
// let go when the database closes.
import { afterAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { openDatabase } from '../../server/db/client.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'db-client-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('openDatabase', () => {
  it('waits for a file another process holds for a moment, rather than failing to open it', async () => {
    const file = path.join(dir, 'held.db')
    const setup = new Database(file, { create: true })
    setup.exec('PRAGMA journal_mode = WAL')
    setup.close()
    // Another process takes the file whole for 300 ms, as a dying build's closing connection does for a moment.
    const holder = Bun.spawn(
      [
        process.execPath,
        '-e',
        `const d = new (require('bun:sqlite').Database)(${JSON.stringify(file)}); d.exec('PRAGMA locking_mode = EXCLUSIVE'); d.exec('BEGIN EXCLUSIVE'); console.log('held'); setTimeout(() => { d.exec('COMMIT'); d.close() }, 300)`,
      ],
      { stdout: 'pipe' },
    )
    await holder.stdout.getReader().read()
    const db = openDatabase(file)
    try {
      expect(
        await db
          .selectFrom('sqlite_master' as never)
          .selectAll()
          .execute(),
      ).toEqual([])
    } finally {
      await db.destroy()
      await holder.exited
    }
  })

  it('runs transactions started at once one after the other, each seeing the last one’s write', async () => {
    const db = await openMigrated(path.join(dir, 'serial.db'))
    try {
      await db.insertInto('settings').values({ key: 'counter', value: '0', updated_at: '' }).execute()
      // Each reads, waits a turn of the event loop, then writes what it read plus one: interleaved, they would
      // lose updates or fail with "cannot start a transaction within a transaction".
      const bump = () =>
        db.transaction().execute(async (trx) => {
          const { value } = await trx.selectFrom('settings').select('value').where('key', '=', 'counter').executeTakeFirstOrThrow()
          await Bun.sleep(1)
          await trx
            .updateTable('settings')
            .set({ value: String(Number(value) + 1) })
            .where('key', '=', 'counter')
            .execute()
        })
      await Promise.all(Array.from({ length: 20 }, bump))
      const row = await db.selectFrom('settings').select('value').where('key', '=', 'counter').executeTakeFirstOrThrow()
      expect(row.value).toBe('20')
    } finally {
      await db.destroy()
    }
  })

  it('answers reads, writes and RETURNING from kept statements with the values of each call', async () => {
    const db = await openMigrated(path.join(dir, 'kept.db'))
    try {
      for (const key of ['a', 'b', 'c']) {
        const inserted = await db.insertInto('settings').values({ key, value: key.toUpperCase(), updated_at: '' }).executeTakeFirst()
        expect(inserted.numInsertedOrUpdatedRows).toBe(1n)
      }
      const read = (key: string) => db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst()
      expect([(await read('a'))?.value, (await read('c'))?.value, await read('z')]).toEqual(['A', 'C', undefined])
      const gone = await db.deleteFrom('settings').where('key', 'in', ['a', 'b']).returning('key').execute()
      expect(gone.map((r) => r.key).sort()).toEqual(['a', 'b'])
      const updated = await db.updateTable('settings').set({ value: 'D' }).where('key', '=', 'c').executeTakeFirst()
      expect(updated.numUpdatedRows).toBe(1n)
    } finally {
      await db.destroy()
    }
  })

  it('lets go of the file when destroyed (a kept statement would hold it open), so restore may replace it', async () => {
    const file = path.join(dir, 'closed.db')
    const openHere = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === file
        } catch {
          return false // closed meanwhile
        }
      }).length
    const db = await openMigrated(file)
    await db.selectFrom('units').select('slug').execute()
    expect(openHere()).toBeGreaterThan(0)
    await db.destroy()
    expect(openHere()).toBe(0)
  })
})

describe('migrate', () => {
  it('applies the pending migrations together or not at all: a failed start changes nothing and keeps no copy', async () => {
    const file = path.join(dir, 'failing.db')
    const backupDir = path.join(dir, 'failing-backups')
    await (await openMigrated(file, { backupDir })).destroy()
    // 0024 pending again with its first index gone and its second still there: it makes one, then fails.
    const sqlite = new Database(file)
    sqlite.exec(`delete from kysely_migration where name = '2026-11-25T0024-read-indexes'; drop index "action_log_actor"`)
    sqlite.close()
    const indexes = () => {
      const db = new Database(file, { readonly: true })
      const names = db.query("select name from sqlite_master where name in ('action_log_actor', 'scouts_unit_den') order by name").all()
      db.close()
      return names
    }
    for (let start = 0; start < 2; start++) {
      await expect(openMigrated(file, { backupDir })).rejects.toThrow(/scouts_unit_den already exists/)
      expect(indexes()).toEqual([{ name: 'scouts_unit_den' }])
    }
    expect(existsSync(backupDir) ? readdirSync(backupDir) : []).toEqual([])
  })
})
