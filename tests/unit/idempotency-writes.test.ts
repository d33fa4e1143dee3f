// A keyed request's writes keep their results in its Idempotency-Key slot as they commit: a route that dies after a
// write committed (a crash, an unexpected error) is retried with that write handed back, not done again.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Db } from '#server/db/client.ts'
import { openMigrated } from '#server/backups/migrate.ts'
import { record, write } from '#server/db/write.ts'
import { Idempotency } from '#server/http/idempotency.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'idempotency-writes-'))
let db: Db
let idempotency: Idempotency
beforeAll(async () => {
  db = await openMigrated(path.join(dir, 'site.db'))
  idempotency = new Idempotency(db)
})
afterAll(async () => {
  await db.destroy()
  rmSync(dir, { recursive: true, force: true })
})

const request = () => new Request('http://127.0.0.1/api/admin/things', { method: 'POST' })
const done: string[] = []

/** A logged write of one settings row named `name`; its result is the row's name and how many writes ran. */
const add = (handle: Db, name: string) =>
  write(handle, async (trx) => {
    done.push(name)
    await trx.insertInto('settings').values({ key: name, value: '1', updated_at: '' }).execute()
    await record(trx, 'test', 'settings.update', `Set ${name}`)
    return { name, count: done.length }
  })

const rowsNamed = async (name: string) => (await db.selectFrom('settings').select('key').where('key', '=', name).execute()).length

describe('writes kept with their Idempotency-Key', () => {
  it('hands a committed write back to the retry of a route that died after it, and answers as the first would', async () => {
    const route = (dies: boolean) => async (handle?: Db) => {
      const made = await add(handle!, 'w-one')
      if (dies) throw new Error('the process died here')
      return Response.json(made, { status: 201 })
    }
    await expect(idempotency.answer(request(), 'session:1', 'k-one', { a: 1 }, route(true))).rejects.toThrow('died')
    expect(await rowsNamed('w-one')).toBe(1)
    const before = done.length

    const retry = await idempotency.answer(request(), 'session:1', 'k-one', { a: 1 }, route(false))
    expect(done.length).toBe(before) // not done again
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    const first = await retry.json()
    expect(first).toEqual({ name: 'w-one', count: before })
    // Kept like any answer now.
    const again = await idempotency.answer(request(), 'session:1', 'k-one', { a: 1 }, route(false))
    expect([again.status, await again.json(), done.length]).toEqual([201, first, before])
    expect(await rowsNamed('w-one')).toBe(1)
  })

  it('hands back the writes that committed, in order, and does the rest', async () => {
    const route = (diesAfterFirst: boolean) => async (handle?: Db) => {
      const a = await add(handle!, 'w-a')
      if (diesAfterFirst) throw new Error('the process died here')
      const b = await add(handle!, 'w-b')
      return Response.json({ a, b }, { status: 201 })
    }
    await expect(idempotency.answer(request(), 'session:1', 'k-two', null, route(true))).rejects.toThrow('died')
    const retry = await idempotency.answer(request(), 'session:1', 'k-two', null, route(false))
    expect(retry.status).toBe(201)
    const { a, b } = await retry.json()
    expect([a.name, b.name, b.count]).toEqual(['w-a', 'w-b', a.count + 1])
    expect([await rowsNamed('w-a'), await rowsNamed('w-b')]).toEqual([1, 1])
  })

  it('keeps the write of a request that died, but no answer, and refuses its key with another body', async () => {
    const dies = async (handle?: Db) => {
      await add(handle!, 'w-three')
      throw new Error('the process died here')
    }
    await expect(idempotency.answer(request(), 'session:1', 'k-three', { a: 1 }, dies)).rejects.toThrow('died')
    await expect(idempotency.answer(request(), 'session:1', 'k-three', { a: 2 }, dies)).rejects.toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
    })
    const kept = await db.selectFrom('idempotency_keys').select('status').where('key', '=', 'k-three').executeTakeFirstOrThrow()
    expect(kept.status).toBe(0) // the write is kept, no answer
  })

  it('keeps nothing during the route for an anonymous caller or an answer with a one-time secret', async () => {
    const handles: (Db | undefined)[] = []
    const route = async (handle?: Db) => {
      handles.push(handle)
      return Response.json({}, { status: 201 })
    }
    await idempotency.answer(request(), 'address:192.0.2.1', 'k-four', null, route)
    await idempotency.answer(request(), 'session:1', 'k-five', null, route, ['key'])
    await idempotency.answer(request(), 'session:1', 'k-six', null, route)
    expect([handles[0], handles[1], handles[2] === undefined]).toEqual([undefined, undefined, false])
  })
})
