// Mail and a service killed mid-send, against a relay that answers 2 s after the end of a message and keeps what it
// took even when the sender is gone by then (as a queueing relay does): a kill after the final dot of DATA may leave
// a copy, so the mail goes again with the same Message-ID and is counted, in the log and /healthz, exactly; a kill
// before the final dot never makes a repeat.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { eventually, freePort, PASSWORD, uniqueEmail } from '../helpers.ts'
import { createOwner, inviteByMail, type ServiceProcess, startService } from '../service-process.ts'

const ANSWER_MS = 2000

interface SlowRelay {
  url: string
  /** Messages taken, in order: the recipient and the Message-ID. */
  received: { to: string; messageId: string }[]
  /** Resolves with the recipient of the next message whose final dot arrives (no answer given yet). */
  nextDot(): Promise<string>
  /** The next RCPT TO gets no answer, ever; resolves with its address once it arrived. */
  stallNextRcpt(): Promise<string>
  /** Resolves once `count` messages were taken. */
  taken(count: number): Promise<void>
  close(): Promise<void>
}

async function startSlowRelay(): Promise<SlowRelay> {
  const received: SlowRelay['received'] = []
  let dotWaiters: ((to: string) => void)[] = []
  let rcptStall: ((to: string) => void) | null = null
  let takenWaiters: { count: number; resolve: () => void }[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!rcptStall) return callback()
      const stalled = rcptStall
      rcptStall = null
      stalled(address.address) // and never answer: the sender is killed while it waits
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const to = session.envelope.rcptTo[0].address
        const waiting = dotWaiters
        dotWaiters = []
        for (const w of waiting) w(to)
        // The relay's own pace (a content scan, a slow disk): it keeps the message whether or not the sender waits.
        setTimeout(async () => {
          const parsed = await simpleParser(Buffer.concat(chunks))
          received.push({ to, messageId: parsed.messageId ?? '' })
          takenWaiters = takenWaiters.filter((w) => (received.length >= w.count ? void w.resolve() : true))
          callback()
        }, ANSWER_MS)
      })
    },
  })
  server.on('error', () => {})
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    nextDot: () => new Promise((resolve) => dotWaiters.push(resolve)),
    stallNextRcpt: () => new Promise((resolve) => (rcptStall = resolve)),
    taken: (count) => new Promise<void>((resolve) => (received.length >= count ? resolve() : takenWaiters.push({ count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

let dir: string
let relay: SlowRelay
let vars: Record<string, string>
const owner = uniqueEmail('owner')

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mail-repeat-'))
  relay = await startSlowRelay()
  vars = { SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>', LOG_FORMAT: 'json' }
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
    return db.query('select id, to_address, state, maybe_sent from mail_outbox order by id').all() as {
      id: number
      to_address: string
      state: string
      maybe_sent: number
    }[]
  } finally {
    db.close()
  }
}

/** The mail.repeat lines of every process: the outbox id and how many earlier copies each counts. */
const repeatLines = (services: ServiceProcess[]) =>
  services
    .flatMap((s) => s.output().split('\n'))
    .filter((line) => line.includes('"kind":"mail.repeat"'))
    .map((line) => JSON.parse(line) as { id: number; repeats: number })

describe('the outbox, a relay slow to answer, and kill -9', () => {
  it('resends what may have gone with the same Message-ID and counts exactly those; a kill before the dot repeats nothing', async () => {
    const emails = Array.from({ length: 5 }, (_, i) => uniqueEmail(`family${i}`))
    const services: ServiceProcess[] = []
    const start = async () => {
      const service = await startService(vars, dir)
      services.push(service)
      return service
    }
    const killed = async (service: ServiceProcess) => {
      service.proc.kill('SIGKILL')
      await service.proc.exited
    }
    const afterDot: string[] = []
    try {
      let service = await start()
      let dot = relay.nextDot()
      await inviteAll(service.url, emails)
      // Three times: killed while the relay holds a whole message and has not answered yet.
      for (let round = 0; round < 3; round++) {
        afterDot.push(await dot)
        await killed(service)
        dot = relay.nextDot()
        service = await start()
      }
      // Once killed while the relay has not even taken the recipient: nothing was handed over.
      const beforeDot = await relay.stallNextRcpt()
      await killed(service)
      service = await start()

      // Every household gets its mail, and the three caught after the dot get a second copy.
      await relay.taken(emails.length + 3)
      const times = (email: string) => relay.received.filter((m) => m.to === email).length
      expect(emails.every((e) => times(e) >= 1)).toBe(true)
      const twice = emails.filter((e) => times(e) === 2)
      expect(twice.sort()).toEqual(afterDot.sort())
      expect(emails.filter((e) => times(e) > 2)).toEqual([])
      expect(times(beforeDot)).toBe(1)
      expect(twice).not.toContain(beforeDot)
      // Each repeat carries the Message-ID of the first copy.
      for (const email of twice) {
        const ids = relay.received.filter((m) => m.to === email).map((m) => m.messageId)
        expect(ids[0]).toMatch(/^<outbox-\d+-\d+@example\.org>$/)
        expect(ids[1]).toBe(ids[0])
      }

      // The log names exactly the repeated ones, once each, and /healthz counts them.
      await eventually(async () => repeatLines(services).length >= twice.length && rows().every((r) => r.state === 'sent'), 20_000)
      const byId = new Map(rows().map((r) => [r.id, r]))
      const logged = repeatLines(services)
      expect(logged.map((l) => byId.get(l.id)!.to_address).sort()).toEqual(twice.sort())
      expect(logged.every((l) => l.repeats === 1)).toBe(true)
      const health = await (await fetch(`${service.url}/healthz`)).json()
      expect(health.checks.mail.possible_repeats).toBe(twice.length)
      expect(health.checks.mail.ok).toBe(true)
    } finally {
      for (const s of services) if (s.proc.exitCode === null) await s.stop()
    }
  }, 360_000)
})
