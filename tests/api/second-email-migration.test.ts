// Migration T0500: a second parent's "Name <email>" kept in second_parent moves to second_email, the name stays.
import { describe, expect, it } from 'bun:test'
import { mkdtempSync, promises as fs, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { FileMigrationProvider, Migrator } from 'kysely'
import { openDatabase } from '../../server/db/client.ts'

describe('migration T0500 household second email', () => {
  it('moves an address out of second_parent, lower-cased; leaves a plain name or none as it was', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'second-email-'))
    const db = openDatabase(path.join(dir, 'site.db'))
    try {
      const migrator = new Migrator({
        db,
        provider: new FileMigrationProvider({ fs, path, migrationFolder: path.join(import.meta.dir, '../../server/db/migrations') }),
      })
      expect((await migrator.migrateTo('2026-11-28T0300-household-feeds')).error).toBeUndefined()
      const now = new Date().toISOString()
      const add = (parent_name: string, second_parent: string | null) =>
        db
          .insertInto('households' as any)
          .values({ parent_name, email: null, phone: null, second_parent, active: 1, created_at: now, updated_at: now })
          .execute()
      await add('A', 'Taylor Abbott <Taylor.Abbott@Example.org>')
      await add('B', '<only@example.org>')
      await add('C', 'Jo Brown')
      await add('D', null)
      expect((await migrator.migrateToLatest()).error).toBeUndefined()
      const rows = await db
        .selectFrom('households')
        .select(['parent_name', 'second_parent', 'second_email'])
        .orderBy('parent_name')
        .execute()
      expect(rows).toEqual([
        { parent_name: 'A', second_parent: 'Taylor Abbott', second_email: 'taylor.abbott@example.org' },
        { parent_name: 'B', second_parent: null, second_email: 'only@example.org' },
        { parent_name: 'C', second_parent: 'Jo Brown', second_email: null },
        { parent_name: 'D', second_parent: null, second_email: null },
      ])
    } finally {
      await db.destroy()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
