// The SMTP relay through nodemailer: one connection setup for the sender and the mail-check command, and how a
// failure is read (the relay's 4xx, a refused or lost connection and a timeout are worth retrying; a 5xx is final).
import { Readable } from 'node:stream'
import type { SendMailOptions, Transporter } from 'nodemailer'
import addressparser from 'nodemailer/lib/addressparser'
import type { MailConfig } from './config.ts'

export interface Outgoing {
  to: string
  subject: string
  text: string
  html: string
  headers?: Record<string, string>
  /** The left part of the Message-ID, the same on every attempt so a receiving server can tell a repeat. */
  messageId: string
  /**
   * Runs when the relay has everything but the final dot of DATA, which waits for it: after that dot the relay may
   * have the mail even if its answer never arrives. Before it, a lost connection means the relay has nothing.
   */
  handOver?: () => Promise<void>
}

export interface Relay {
  send(mail: Outgoing): Promise<void>
  /** Connects and signs in without sending (mail-check without --to). */
  verify(): Promise<void>
  close(): void
}

export function smtpRelay(config: MailConfig): Relay {
  const domain = addressparser(config.from, { flatten: true })[0].address.split('@')[1]
  // nodemailer is loaded when the first mail goes (or the relay is checked), not at start.
  let made: Promise<Transporter> | null = null
  const transport = () =>
    (made ??= import('nodemailer').then(({ default: nodemailer }) => {
      const made = nodemailer.createTransport({
        url: config.url,
        requireTLS: config.requireTls || undefined,
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 60_000,
      })
      made.use('stream', holdTheDot)
      return made
    }))
  return {
    async send({ handOver, ...mail }) {
      const { replyTo, ...headers } = mail.headers ?? {}
      const options = { from: config.from, ...mail, messageId: `<${mail.messageId}@${domain}>`, replyTo, headers, handOver }
      await (await transport()).sendMail(options as SendMailOptions)
    },
    async verify() {
      await (await transport()).verify()
    },
    close: () => void made?.then((t) => t.close()),
  }
}

/**
 * A nodemailer plugin: the message's stream ends only after the mail's `handOver` ran, and nodemailer writes the
 * final dot when it ends. The stream is made, and read, only once the relay said 354 to DATA, so the hook runs when
 * the envelope and the whole message have gone and only the dot is left.
 */
const holdTheDot: Parameters<Transporter['use']>[1] = (mail, done) => {
  const handOver = (mail.data as { handOver?: () => Promise<void> }).handOver
  if (handOver) {
    const create = mail.message.createReadStream.bind(mail.message)
    mail.message.createReadStream = (...args: Parameters<typeof create>) =>
      Readable.from(
        (async function* () {
          yield* create(...args)
          await handOver()
        })(),
        { objectMode: false },
      )
  }
  done()
}

/**
 * A failed attempt: whether to try again, what happened in one line (the relay's own answer when it gave one), and
 * whether the relay answered (then it does not have the mail; a lost connection after the final dot leaves it open).
 */
export function readFailure(error: unknown): { temporary: boolean; reason: string; answered: boolean } {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string }
  if (typeof e.responseCode === 'number')
    return {
      temporary: e.responseCode < 500,
      reason: (e.response ?? `${e.responseCode}`).replace(/\s+/g, ' ').slice(0, 300),
      answered: true,
    }
  const message = (e.message ?? String(error)).replace(/\s+/g, ' ').slice(0, 300)
  // Bad credentials or a relay refusing STARTTLS are settings to fix: retrying cannot help, but a fix in time can,
  // so they wait like a relay that is down (the health check and the deliveries say why).
  return { temporary: true, reason: e.code ? `${e.code}: ${message}` : message, answered: false }
}
