// The migrations are frozen: a fresh database gets exactly the schema recorded in tests/fixtures/schema.json
// (tables, columns, keys and indexes). A new migration updates the record on purpose; nothing else may.
import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/db/client.ts'
import { schemaOf } from '../schema.ts'

describe('migrations', () => {
  it('create the recorded schema on a fresh database', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'schema-'))
    try {
      const file = path.join(dir, 'site.db')
      await (await openMigrated(file)).destroy()
      const recorded = await Bun.file(path.join(import.meta.dir, '..', 'fixtures', 'schema.json')).json()
      expect(schemaOf(file)).toEqual(recorded)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
