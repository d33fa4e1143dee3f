// A migration that reached main is never changed, renamed or deleted: databases made with it keep its name in
// kysely_migration and what it made. server/db/migrations.sum records each file's sha256 (`bun tests/schema.ts`).
import { describe, expect, it } from 'bun:test'
import { currentSums, frozenBreaches, recordedSums } from '../migration-sums.ts'

describe('shipped migrations', () => {
  it('are each on disk with the content recorded in server/db/migrations.sum', () => {
    expect(frozenBreaches()).toEqual([])
  })

  it('are all recorded (run `bun tests/schema.ts` after adding one)', () => {
    const recorded = recordedSums()
    expect([...currentSums().keys()].filter((file) => !recorded.has(file))).toEqual([])
  })
})
