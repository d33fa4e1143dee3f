// A failing backup is told: the real service with a backup folder it cannot write, a real SMTP relay on loopback,
// and an owner who gets one short mail about it while /healthz says "degraded" at the top.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { alertOwnersOfFailedBackup } from '../../server/backups/alert.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import type { MailSender } from '../../server/mail/sender.ts'
import { createAccount } from '../../server/people/accounts.ts'
import { hashPassword } from '../../server/auth/passwords.ts'
import { startRelay } from '../mail.ts'
import { startService } from '../service-process.ts'

const ROOT = path.join(import.meta.dir, '..', '..')
const dir = mkdtempSync(path.join(tmpdir(), 'backup-alert-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('a backup that fails', () => {
  it('mails each owner once, and /healthz reports the service degraded with the sentence', async () => {
    const relay = await startRelay()
    const databasePath = path.join(dir, 'site.db')
    const owner = 'owner.alert@example.org'
    const made = Bun.spawnSync(
      [process.execPath, 'server/cli.ts', 'create-owner', '--email', owner, '--password', 'a long password here'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_PATH: databasePath },
      },
    )
    expect(made.exitCode).toBe(0)
    // A file where the backup folder should be: every backup fails.
    const notAFolder = path.join(dir, 'backups-is-a-file')
    writeFileSync(notAFolder, 'not a folder')
    const service = await startService({ BACKUP_DIR: notAFolder, SMTP_URL: relay.url, MAIL_FROM: 'pack@example.org' }, dir)
    try {
      // The catch-up backup runs a few seconds after the start, fails, and the owner is told.
      const mail = await relay.waitFor(owner, 30_000)
      expect(mail.subject).toBe('The backup of Pack & Troop failed')
      expect(mail.text).toContain('did not work')
      const health = await (await fetch(`${service.url}/healthz`)).json()
      expect(health).toMatchObject({ ok: true, status: 'degraded', checks: { backup: { ok: false } } })
      expect(health.problems).toContain('backup: The backup is failing or late; the history page (Backups) says why')
      expect(relay.received.filter((m) => m.to.includes(owner))).toHaveLength(1)
    } finally {
      await service.stop()
      await relay.close()
    }
  }, 60_000)

  it('tells each enabled owner at most once a day, however often it fails', async () => {
    const db = await openMigrated(path.join(dir, 'once.db'))
    try {
      const password_hash = await hashPassword('a long password here')
      const account = (email: string, global_role: 'owner' | 'admin') =>
        createAccount(db, { email, name: null, password_hash, global_role, units: [] })
      await account('first.owner@example.org', 'owner')
      await account('second.owner@example.org', 'owner')
      await account('an.admin@example.org', 'admin')
      const woken = { count: 0 }
      const mail = { wake: () => woken.count++ } as unknown as MailSender
      expect(await alertOwnersOfFailedBackup(db, mail, 'disk full', 'http://127.0.0.1:1')).toBe(2)
      expect(await alertOwnersOfFailedBackup(db, mail, 'disk full again', 'http://127.0.0.1:1')).toBe(0)
      const queued = await db.selectFrom('mail_outbox').select(['to_address', 'kind']).orderBy('id').execute()
      expect(queued).toEqual([
        { to_address: 'first.owner@example.org', kind: 'alert' },
        { to_address: 'second.owner@example.org', kind: 'alert' },
      ])
      expect(woken.count).toBe(1)
    } finally {
      await db.destroy()
    }
  })
})
