// bun server/cli.ts mail-check [--to ADDRESS]: one line and exit 0 when the relay in SMTP_URL takes the connection
// (or the test message), exit 1 with one line saying why otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import path from 'node:path'
import { freePort } from '../helpers.ts'
import { startRelay, type TestRelay } from '../mail.ts'

const root = path.join(import.meta.dir, '..', '..')
let relay: TestRelay
beforeAll(async () => {
  relay = await startRelay()
})
afterAll(() => relay.close())

// Not spawnSync: the relay answers from this process, so its event loop must keep running.
async function mailCheck(vars: Record<string, string>, ...args: string[]) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_PATH: '/nonexistent/site.db',
    SMTP_URL: '',
    MAIL_FROM: '',
    ...vars,
  }
  const proc = Bun.spawn([process.execPath, 'server/cli.ts', 'mail-check', ...args], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, out: (out + err).trim() }
}

describe('mail-check', () => {
  it('says mail is not configured without SMTP_URL (exit 1)', async () => {
    const run = await mailCheck({})
    expect(run.code).toBe(1)
    expect(run.out).toStartWith('Mail is not configured: set SMTP_URL')
    expect(run.out.split('\n')).toHaveLength(1)
  })

  it('says the relay answers (exit 0), and with --to sends a test message the relay accepts', async () => {
    const vars = { SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }
    const plain = await mailCheck(vars)
    expect(plain).toEqual({
      code: 0,
      out: `The relay at 127.0.0.1:${relay.port} answers and accepts the sign-in (add --to ADDRESS to send a test message)`,
    })
    const sent = await mailCheck(vars, '--to', 'leader@example.org')
    expect(sent).toEqual({ code: 0, out: `The relay at 127.0.0.1:${relay.port} accepted a test message to leader@example.org` })
    const mail = await relay.waitFor('leader@example.org')
    expect(mail.subject).toBe('Test message from the site')
  })

  it('gives the relay answer when it refuses the message, and the connection problem when it is down (exit 1)', async () => {
    relay.answerNext({ code: 550, message: 'Relaying denied' })
    const refused = await mailCheck({ SMTP_URL: relay.url, MAIL_FROM: 'pack@example.org' }, '--to', 'x@example.org')
    expect(refused.code).toBe(1)
    expect(refused.out).toBe(`The relay at 127.0.0.1:${relay.port} did not accept the test message: 550 Relaying denied`)
    const port = await freePort()
    const down = await mailCheck({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'pack@example.org' })
    expect(down.code).toBe(1)
    expect(down.out).toStartWith(`The relay at 127.0.0.1:${port} did not accept the connection: ESOCKET`)
    expect(down.out).toContain('ECONNREFUSED')
  })
})
