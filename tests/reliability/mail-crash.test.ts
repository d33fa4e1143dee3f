// The outbox across a killed and a stopped service (real processes): mail under way when the service is killed goes
// again after the restart, mail a stop waited for is not sent again, and every address gets its mail exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eventually, PASSWORD, uniqueEmail } from '../helpers.ts'
import { startRelay, type TestRelay } from '../mail.ts'
import { createOwner, inviteByMail, startService } from '../service-process.ts'

let dir: string
let relay: TestRelay
let vars: Record<string, string>
const owner = uniqueEmail('owner')

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mail-crash-'))
  relay = await startRelay()
  vars = { SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }
  createOwner(dir, owner, PASSWORD)
})
afterAll(async () => {
  await relay.close()
  rmSync(dir, { recursive: true, force: true })
})

const inviteAll = (url: string, emails: string[]) => inviteByMail(url, { email: owner, password: PASSWORD }, emails)

const rows = () => {
  const db = new Database(path.join(dir, 'site.db'), { readonly: true })
  try {
    return db.query('select to_address, state from mail_outbox order by id').all() as { to_address: string; state: string }[]
  } finally {
    db.close()
  }
}

const timesReceived = (email: string) => relay.received.filter((m) => m.to.includes(email)).length

describe('the outbox and a service that ends mid-send', () => {
  it('sends the mail under way at a SIGKILL again after the restart, and every other one once', async () => {
    const emails = [uniqueEmail('k1'), uniqueEmail('k2'), uniqueEmail('k3')]
    relay.answerNext('accept', 'hold')
    const first = await startService(vars, dir)
    await inviteAll(first.url, emails)
    await relay.held()
    first.proc.kill('SIGKILL')
    await first.proc.exited
    relay.release(false) // the connection is gone: the relay never took the held message
    expect(rows().map((r) => r.state)).toEqual(['sent', 'sending', 'queued'])
    const second = await startService(vars, dir)
    try {
      await relay.waitForCount(3)
      // Each is recorded just before its log line; the mail taken up again goes after the one that was waiting.
      await second.waitFor(/Sent mail 2 /)
      await second.waitFor(/Sent mail 3 /)
      expect(rows().map((r) => r.state)).toEqual(['sent', 'sent', 'sent'])
      expect(emails.map(timesReceived)).toEqual([1, 1, 1])
    } finally {
      await second.stop()
    }
  })

  it('lets a SIGTERM wait for the mail under way, which is then not sent again', async () => {
    const emails = [uniqueEmail('t1'), uniqueEmail('t2')]
    relay.answerNext('hold')
    const first = await startService(vars, dir)
    await inviteAll(first.url, emails)
    await relay.held()
    first.proc.kill('SIGTERM')
    await first.waitFor(/SIGTERM: stopping/)
    relay.release(true)
    expect(await first.proc.exited).toBe(0)
    // The stop waited for the relay's answer and recorded it (the second mail may or may not have gone before).
    expect(rows()[3].state).toBe('sent')
    const second = await startService(vars, dir)
    try {
      await relay.waitFor(emails[1])
      await eventually(async () => rows().every((r) => r.state === 'sent'))
      expect(emails.map(timesReceived)).toEqual([1, 1])
    } finally {
      await second.stop()
    }
  })
})
