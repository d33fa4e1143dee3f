// A real SMTP server on loopback (smtp-server, from the nodemailer project) that keeps what it accepted, parsed by
// mailparser; tests tell it to refuse the next messages (4xx, 5xx) or to hold one until they let it go.
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { freePort } from './helpers.ts'

export interface Received {
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  headers: Map<string, unknown>
  messageId: string
  parsed: ParsedMail
}

type Answer = { code: number; message: string } | 'hold' | 'accept'

export interface TestRelay {
  /** `smtp://127.0.0.1:PORT` */
  url: string
  port: number
  /** Every message accepted so far, in order. */
  received: Received[]
  /** What the next messages get, one answer each: a refusal, accepted, or held until `release()`. */
  answerNext(...answers: Answer[]): void
  /** Resolves once a message is held (DATA fully received, no answer given yet). */
  held(): Promise<void>
  /** Answers the held message: accepted (true) or never (the connection is dropped). */
  release(accept: boolean): void
  /** Waits until `count` messages were accepted (or `ms` passed). */
  waitForCount(count: number, ms?: number): Promise<Received[]>
  /** Waits for the first accepted message to `to`. */
  waitFor(to: string, ms?: number): Promise<Received>
  /** How many DATA commands were answered with a refusal so far. */
  refusals: number
  close(): Promise<void>
}

/** Starts a relay on `port` (a free one by default): it accepts any sender and recipient, without TLS or sign-in. */
export async function startRelay(port?: number): Promise<TestRelay> {
  const received: Received[] = []
  const answers: Answer[] = []
  let waiters: (() => void)[] = []
  let heldNow: ((accept: boolean) => void) | null = null
  let heldSignal: (() => void) | null = null
  const notify = () => {
    const current = waiters
    waiters = []
    for (const w of current) w()
  }
  const relay: TestRelay = {} as TestRelay
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        const answer = answers.shift()
        if (answer && answer !== 'hold' && answer !== 'accept') {
          relay.refusals++
          return callback(Object.assign(new Error(answer.message), { responseCode: answer.code }))
        }
        const accept = async () => {
          const parsed = await simpleParser(Buffer.concat(chunks))
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: parsed.headers,
            messageId: parsed.messageId ?? '',
            parsed,
          })
          callback()
          notify()
        }
        if (answer !== 'hold') return accept()
        heldNow = (ok) => (ok ? void accept() : callback(Object.assign(new Error('dropped'), { responseCode: 421 })))
        heldSignal?.()
      })
    },
  })
  const listenPort = port ?? (await freePort())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(listenPort, '127.0.0.1', () => resolve())
  })
  server.on('error', () => {})
  Object.assign(relay, {
    url: `smtp://127.0.0.1:${listenPort}`,
    port: listenPort,
    received,
    refusals: 0,
    answerNext: (...a: Answer[]) => void answers.push(...a),
    held: () => new Promise<void>((resolve) => (heldNow ? resolve() : (heldSignal = resolve))),
    release(accept: boolean) {
      const h = heldNow
      heldNow = null
      heldSignal = null
      h?.(accept)
    },
    async waitForCount(count: number, ms = 20_000) {
      const deadline = Date.now() + ms
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the relay got ${received.length} of ${count} messages within ${ms} ms`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, Math.max(0, deadline - Date.now()))
        })
      }
      return received.slice(0, count)
    },
    async waitFor(to: string, ms = 20_000) {
      const deadline = Date.now() + ms
      for (;;) {
        const found = received.find((m) => m.to.includes(to))
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no message to ${to} within ${ms} ms (got ${received.map((m) => m.to).join(', ')})`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, Math.max(0, deadline - Date.now()))
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
  return relay
}

/** The one link in a mail's text part that starts with `prefix`. */
export function linkIn(mail: Received, prefix: string): string {
  const found = mail.text.split(/\s+/).find((word) => word.startsWith(prefix))
  if (!found) throw new Error(`no ${prefix} link in: ${mail.text}`)
  return found
}
