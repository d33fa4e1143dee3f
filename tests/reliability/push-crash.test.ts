// The push outbox across a killed and a stopped service (real processes, a real push-service stand-in on loopback):
// the push under way at a SIGKILL and the one recorded behind it each arrive once after the restart; a push a SIGTERM
// waited for is not sent again. The lead alert that caused them is mailed once either way.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eventually, PASSWORD, uniqueEmail } from '../helpers.ts'
import { startRelay, type TestRelay } from '../mail.ts'
import { startPushService, type PushStandIn, type TestDevice } from '../push.ts'
import { createOwner, startService } from '../service-process.ts'

let relay: TestRelay
let push: PushStandIn
let vars: Record<string, string>
const dirs: string[] = []

beforeAll(async () => {
  relay = await startRelay()
  push = await startPushService()
  vars = { SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>', OUTBOUND_ALLOW: '127.0.0.1/32' }
})
afterAll(async () => {
  await relay.close()
  await push.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A database whose owner also leads the pack, so a join form for the pack alerts them. */
function leaderDatabase() {
  const dir = mkdtempSync(path.join(tmpdir(), 'push-crash-'))
  dirs.push(dir)
  const email = uniqueEmail('owner')
  createOwner(dir, email, PASSWORD)
  const db = new Database(path.join(dir, 'site.db'))
  db.run(
    `insert into memberships (person_id, unit_id, role, title)
     select people.id, units.id, 'leader', null from people, units where people.email = ? and units.slug = 'pack'`,
    [email],
  )
  db.close()
  return { dir, email }
}

async function subscribeDevices(url: string, email: string, count: number): Promise<TestDevice[]> {
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  const cookie = login.headers.get('set-cookie')!.split(';')[0]
  const devices = Array.from({ length: count }, () => push.device())
  for (const d of devices) {
    const res = await fetch(`${url}/api/admin/account/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(d.subscription),
    })
    if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`)
  }
  return devices
}

const join = async (url: string) => {
  const res = await fetch(`${url}/api/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ parent_name: 'Crash Family', email: uniqueEmail('family'), unit: 'pack' }),
  })
  expect(res.status).toBe(201)
}

const states = (dir: string) => {
  const db = new Database(path.join(dir, 'site.db'), { readonly: true })
  try {
    return (db.query('select state from push_outbox order by id').all() as { state: string }[]).map((r) => r.state)
  } finally {
    db.close()
  }
}
const times = (d: TestDevice) => push.received.filter((p) => p.device === d.id).length
const mailsTo = (email: string) => relay.received.filter((m) => m.to.includes(email)).length

describe('the push outbox and a service that ends mid-send', () => {
  it('sends the push under way at a SIGKILL, and the one recorded behind it, once each after the restart', async () => {
    const { dir, email } = leaderDatabase()
    const first = await startService(vars, dir)
    const [phone, tablet] = await subscribeDevices(first.url, email, 2)
    push.answerNext('hold')
    await join(first.url)
    await push.held()
    first.proc.kill('SIGKILL')
    await first.proc.exited
    push.release(false) // the connection is gone: the push service never took the held push
    expect(states(dir)).toEqual(['sending', 'queued'])
    const second = await startService(vars, dir)
    try {
      await second.waitFor(/Sent push 1 /)
      await second.waitFor(/Sent push 2 /)
      expect(states(dir)).toEqual(['sent', 'sent'])
      expect([times(phone), times(tablet)]).toEqual([1, 1])
      expect(push.received.find((p) => p.device === phone.id)!.payload.title).toBe('A new family sent the join form')
      await relay.waitFor(email)
      expect(mailsTo(email)).toBe(1)
    } finally {
      await second.stop()
    }
  })

  it('lets a SIGTERM wait for the push under way, which is then not sent again', async () => {
    const { dir, email } = leaderDatabase()
    const first = await startService(vars, dir)
    const [phone] = await subscribeDevices(first.url, email, 1)
    push.answerNext('hold')
    await join(first.url)
    await push.held()
    first.proc.kill('SIGTERM')
    await first.waitFor(/SIGTERM: stopping/)
    push.release(true)
    expect(await first.proc.exited).toBe(0)
    expect(states(dir)).toEqual(['sent'])
    const second = await startService(vars, dir)
    try {
      await relay.waitFor(email)
      await eventually(async () => states(dir).every((s) => s === 'sent'))
      expect(times(phone)).toBe(1)
      expect(mailsTo(email)).toBe(1)
    } finally {
      await second.stop()
    }
  })
})
