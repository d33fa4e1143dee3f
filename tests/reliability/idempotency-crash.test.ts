// Safe retries across a crash (real processes): a create whose process dies after its write committed but before its
// answer was kept is replayed by its retry, not done again; and in a storm of creates against a service killed with
// SIGKILL again and again, every create whose answer was lost, retried with its key after the restart, is there once.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ADMIN_TOKEN, PASSWORD, uniqueEmail } from '../helpers.ts'
import { createOwner, startService, type ServiceProcess } from '../service-process.ts'

const KILLS = 4
const WRITERS = 16
/** Answers a round waits for before it kills the service. */
const ANSWERS_PER_ROUND = 30

const owner = uniqueEmail('owner')
let dir: string
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'idempotency-crash-'))
  createOwner(dir, owner, PASSWORD)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Create {
  key: string
  name: string
}

/** One create, sent with its key: the answer, or null when the connection died without one. */
async function send(service: ServiceProcess, create: Create) {
  try {
    const res = await fetch(`${service.url}/api/admin/nearby`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN, 'idempotency-key': create.key },
      body: JSON.stringify({ name: create.name, unit_type: 'troop' }),
    })
    return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', id: (await res.json()).id as number }
  } catch {
    return null
  }
}

/** Ends a service at once (a graceful stop waits for its site build); what it committed is on disk either way. */
const end = async (service: ServiceProcess) => {
  service.proc.kill('SIGKILL')
  await service.proc.exited
}

const rowsNamed = (name: string) => {
  const db = new Database(path.join(dir, 'site.db'), { readonly: true })
  // The service may hold a lock a moment (its start-up writes, a checkpoint): wait for it rather than fail busy.
  db.run('PRAGMA busy_timeout = 10000')
  const rows = db.query('select id from nearby_units where name = ?').all(name) as { id: number }[]
  db.close()
  return rows.map((row) => row.id)
}

describe('Idempotency-Key across SIGKILL', () => {
  it('replays a create whose process died after its write committed but before its answer was kept', async () => {
    const create = { key: crypto.randomUUID(), name: 'Troop Window' }
    // The test-only hook kills the service right after the route ran, before the answer is kept or sent.
    const dying = await startService({ ADMIN_TOKEN, NODE_ENV: 'test', TEST_ONLY_DIE_BEFORE_ANSWER_KEPT: create.key }, dir)
    expect(await send(dying, create)).toBeNull()
    await dying.proc.exited
    expect(dying.proc.signalCode).toBe('SIGKILL')
    expect(rowsNamed(create.name)).toHaveLength(1) // the write committed

    const service = await startService({ ADMIN_TOKEN }, dir)
    const retry = await send(service, create)
    expect(retry).toEqual({ status: 201, replayed: true, id: rowsNamed(create.name)[0] })
    expect(rowsNamed(create.name)).toHaveLength(1)
    // The replay is kept now like any answer: another retry gets the same.
    expect(await send(service, create)).toEqual(retry)
    // A new key for the same body is a new request, done.
    expect((await send(service, { ...create, key: crypto.randomUUID() }))?.replayed).toBe(false)
    expect(rowsNamed(create.name)).toHaveLength(2)
    await end(service)
  }, 120_000)

  it('replays a scout added in a session whose answer, read after the write, was lost to the kill', async () => {
    const first = await startService({ ADMIN_TOKEN }, dir)
    const signIn = await fetch(`${first.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner, password: PASSWORD }),
    })
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]
    const post = (service: ServiceProcess, target: string, json: unknown, key?: string) =>
      fetch(`${service.url}${target}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...(key ? { 'idempotency-key': key } : {}) },
        body: JSON.stringify(json),
      })
    const household = (await (await post(first, '/api/admin/roster/households', { parent_name: 'Robin Crash' })).json()).id as number
    await end(first)
    const db = new Database(path.join(dir, 'site.db'), { readonly: true })
    const pack = (db.query("select id from units where slug = 'pack'").get() as { id: number }).id
    const scouts = () => db.query('select id from scouts where household_id = ?').all(household) as { id: number }[]

    const key = crypto.randomUUID()
    const scout = { first_name: 'Avery', unit_id: pack }
    const dying = await startService({ ADMIN_TOKEN, NODE_ENV: 'test', TEST_ONLY_DIE_BEFORE_ANSWER_KEPT: key }, dir)
    expect(await post(dying, `/api/admin/roster/households/${household}/scouts`, scout, key).catch(() => null)).toBeNull()
    await dying.proc.exited
    expect(scouts()).toHaveLength(1)

    const service = await startService({ ADMIN_TOKEN }, dir)
    const retry = await post(service, `/api/admin/roster/households/${household}/scouts`, scout, key)
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(await retry.json()).toMatchObject({ id: scouts()[0].id, first_name: 'Avery', household_id: household })
    expect(scouts()).toHaveLength(1)
    db.close()
    await end(service)
  }, 120_000)

  it('creates each thing once when creates whose answers a kill lost are retried with their keys', async () => {
    const unanswered: Create[] = []
    const acknowledged = new Map<string, number>() // name → id
    let made = 0
    let retried = 0
    const answered = (create: Create, answer: { status: number; replayed: boolean; id: number }) => {
      expect(answer.status).toBe(201)
      if (acknowledged.has(create.name)) expect(answer.id).toBe(acknowledged.get(create.name)!)
      acknowledged.set(create.name, answer.id)
    }

    for (let round = 0; round <= KILLS; round++) {
      const service = await startService({ ADMIN_TOKEN }, dir)
      // First the creates the last kill left without an answer, each with the key it was sent with.
      const retries = unanswered.splice(0)
      retried += retries.length
      const again = await Promise.all(retries.map((create) => send(service, create)))
      for (const [i, answer] of again.entries()) {
        expect(answer).not.toBeNull()
        answered(retries[i], answer!)
      }
      if (round === KILLS) {
        await end(service)
        break
      }
      // Then a storm of new creates; once enough were answered, the kill comes as soon as the database holds a create
      // whose answer has not come back: the window between a write's commit and its answer.
      let answers = 0
      let enough!: () => void
      const warm = new Promise<void>((resolve) => (enough = resolve))
      const inFlight = new Set<string>()
      let dead = false
      const writer = async (n: number) => {
        for (let i = 0; !dead; i++) {
          const create = { key: `${round}-${n}-${i}-${crypto.randomUUID()}`, name: `Storm ${round}-${n}-${i}` }
          inFlight.add(create.name)
          const answer = await send(service, create)
          inFlight.delete(create.name)
          if (!answer) return void unanswered.push(create)
          answered(create, answer)
          if (++answers === ANSWERS_PER_ROUND) enough()
        }
      }
      const writers = Array.from({ length: WRITERS }, (_, n) => writer(n))
      await warm
      const watch = new Database(service.databasePath, { readonly: true })
      const committed = watch.query('select id, name from nearby_units where id > ?')
      let seen = (watch.query('select max(id) as id from nearby_units').get() as { id: number }).id
      for (;;) {
        const rows = committed.all(seen) as { id: number; name: string }[]
        if (rows.some((row) => inFlight.has(row.name))) break
        seen = Math.max(seen, ...rows.map((row) => row.id))
        await Bun.sleep(0)
      }
      service.proc.kill('SIGKILL')
      await service.proc.exited
      watch.close()
      dead = true
      await Promise.all(writers)
      made += answers
    }

    const db = new Database(path.join(dir, 'site.db'), { readonly: true })
    const rows = db.query("select id, name from nearby_units where name like 'Storm %'").all() as { id: number; name: string }[]
    db.close()
    const twice = rows.filter((row, i) => rows.findIndex((other) => other.name === row.name) !== i).map((r) => r.name)
    expect(twice).toEqual([])
    expect(rows.length).toBe(acknowledged.size)
    expect(new Map(rows.map((r) => [r.name, r.id]))).toEqual(acknowledged)
    expect(made).toBeGreaterThanOrEqual(KILLS * ANSWERS_PER_ROUND)
    // Each kill left creates without an answer, and each of those was retried.
    expect(retried).toBeGreaterThanOrEqual(KILLS)
  }, 180_000)
})
