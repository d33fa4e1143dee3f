// The migrations are frozen: a fresh database gets exactly the schema recorded in tests/fixtures/schema.json
// (tables, columns, keys and indexes). A new migration updates the record on purpose (`bun tests/schema.ts`);
// nothing else may.
import { describe, expect, it } from 'bun:test'
import { migratedSchema, SCHEMA_FIXTURE } from '../schema.ts'

describe('migrations', () => {
  it('create the recorded schema on a fresh database', async () => {
    expect(await migratedSchema()).toEqual(await Bun.file(SCHEMA_FIXTURE).json())
  })
})
