// mail-check: whether the relay in SMTP_URL takes a connection and the sign-in, or (with an address) a test message.
import { randomUUID } from 'node:crypto'
import type { MailConfig } from './config.ts'
import { readFailure, smtpRelay } from './relay.ts'

export async function checkMailRelay(config: MailConfig, to: string | null): Promise<{ ok: boolean; line: string }> {
  const relay = smtpRelay(config)
  try {
    if (to) {
      await relay.send({
        to,
        subject: 'Test message from the site',
        text: `This is a test message from the site's mail check (bun server/cli.ts mail-check). Mail from ${config.from} works.`,
        html: `<p>This is a test message from the site's mail check. Mail from ${Bun.escapeHTML(config.from)} works.</p>`,
        messageId: `mail-check-${randomUUID()}`,
      })
      return { ok: true, line: `The relay at ${config.relay} accepted a test message to ${to}` }
    }
    await relay.verify()
    return { ok: true, line: `The relay at ${config.relay} answers and accepts the sign-in (add --to ADDRESS to send a test message)` }
  } catch (error) {
    return {
      ok: false,
      line: `The relay at ${config.relay} did not accept ${to ? 'the test message' : 'the connection'}: ${readFailure(error).reason}`,
    }
  } finally {
    relay.close()
  }
}
