// Test servers start on a copy of one migrated database (tests/template-db.ts): the copy has the recorded schema, the
// service's start finds no migration pending on it, and every server gets a file of its own.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDatabase } from '../../server/db/client.ts'
import { migrate } from '../../server/backups/migrate.ts'
import { startServer } from '../helpers.ts'
import { SCHEMA_FIXTURE, schemaOf } from '../schema.ts'
import { copyTemplate, templateDatabase } from '../template-db.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'template-db-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the migrated template database', () => {
  it('has the recorded schema, and a copy of it needs no migration', async () => {
    expect(schemaOf(await templateDatabase())).toEqual(await Bun.file(SCHEMA_FIXTURE).json())
    const file = path.join(dir, 'copy.db')
    await copyTemplate(file)
    const db = openDatabase(file)
    expect(await migrate(db)).toEqual([])
    await db.destroy()
  })

  it('gives each test server a database of its own', async () => {
    const [a, b] = await Promise.all([startServer(), startServer()])
    await a.person({ email: 'only-in-a@example.org' })
    expect(await b.db.selectFrom('people').select('email').where('email', '=', 'only-in-a@example.org').execute()).toEqual([])
    await a.stop()
    await b.stop()
  })

  it('leaves a database a test keeps (DATABASE_PATH) as it is: only a new file is a copy', async () => {
    const kept = path.join(dir, 'kept', 'site.db')
    const first = await startServer({ DATABASE_PATH: kept })
    await first.person({ email: 'kept@example.org' })
    await first.stop()
    const again = await startServer({ DATABASE_PATH: kept })
    expect(await again.db.selectFrom('people').select('email').where('email', '=', 'kept@example.org').execute()).toHaveLength(1)
    await again.stop()
  })
})
