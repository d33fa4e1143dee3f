// What the nightly upkeep keeps and for how long (server/ops/retention.ts): old rows go, current ones stay, a sent
// mail keeps its delivery record without its text.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Db } from '../../server/db/client.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { pruneExpired } from '../../server/ops/retention.ts'
import { createAccount } from '../../server/people/accounts.ts'
import { hashPassword } from '../../server/auth/passwords.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'retention-'))
let db: Db
let person: number
beforeAll(async () => {
  db = await openMigrated(path.join(dir, 'site.db'))
  person = await createAccount(db, {
    email: 'kept@example.org',
    name: null,
    password_hash: await hashPassword('a long password here'),
    global_role: 'owner',
    units: [],
  })
})
afterAll(async () => {
  await db.destroy()
  rmSync(dir, { recursive: true, force: true })
})

const DAY = 86_400_000
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString()
const ahead = (days: number) => new Date(Date.now() + days * DAY).toISOString()

async function mail(to: string, state: 'sent' | 'failed' | 'queued', createdDaysAgo: number) {
  await db
    .insertInto('mail_outbox')
    .values({
      created_at: ago(createdDaysAgo),
      kind: 'message',
      to_address: to,
      subject: 'Campout',
      text_body: 'Bring a sleeping bag',
      html_body: '<p>Bring a sleeping bag</p>',
      give_up_at: ago(createdDaysAgo - 1),
      state,
      next_attempt_at: ago(createdDaysAgo),
      sent_at: state === 'sent' ? ago(createdDaysAgo) : null,
    })
    .execute()
}

const link = (key: string, fields: Record<string, string | null>) => ({
  token_hash: key,
  created_at: ago(60),
  expires_at: ahead(1),
  used_at: null,
  revoked_at: null,
  ...fields,
})

describe('pruneExpired', () => {
  it('empties old sent and given-up mail, deletes spent links, ended sessions, old build records and old spam; keeps the rest', async () => {
    await mail('old-sent@example.org', 'sent', 31)
    await mail('old-failed@example.org', 'failed', 31)
    await mail('recent@example.org', 'sent', 29)
    await mail('waiting@example.org', 'queued', 40)
    const session = (key: string, expires: string) =>
      ({ token_hash: key, person_id: person, created_at: ago(40), last_seen_at: ago(1), expires_at: expires }) as const
    await db
      .insertInto('sessions')
      .values([session('ended', ago(1)), session('live', ahead(10))])
      .execute()
    const invite = (key: string, fields: Record<string, string | null>) => ({
      ...link(key, fields),
      email: `${key}@example.org`,
      units: '[]',
      invited_by: 'kept@example.org',
    })
    await db
      .insertInto('invites')
      .values([
        invite('used-long-ago', { used_at: ago(31) }),
        invite('revoked-long-ago', { revoked_at: ago(31) }),
        invite('expired-long-ago', { expires_at: ago(31) }),
        invite('used-lately', { used_at: ago(2) }),
        invite('open', {}),
      ])
      .execute()
    const reset = (key: string, fields: Record<string, string | null>) => ({ ...link(key, fields), person_id: person, created_by: 'x' })
    await db
      .insertInto('reset_links')
      .values([reset('reset-used-long-ago', { used_at: ago(40) }), reset('reset-open', {})])
      .execute()
    const build = (days: number) => ({
      started_at: ago(days),
      finished_at: ago(days),
      duration_ms: 900,
      ok: 1,
      reason: 'test',
      error: null,
    })
    await db
      .insertInto('site_builds')
      .values([build(90), build(45), build(2)])
      .execute()
    await db
      .insertInto('join_spam')
      .values([
        { at: ago(400), address: null, payload: '{}' },
        { at: ago(100), address: null, payload: '{}' },
      ])
      .execute()

    const counts = await pruneExpired(db)
    expect(counts).toMatchObject({ mail_texts: 2, sessions: 1, invites: 3, reset_links: 1, site_builds: 2, join_spam: 1 })

    const mails = await db.selectFrom('mail_outbox').select(['to_address', 'state', 'text_body', 'html_body']).orderBy('id').execute()
    // Every delivery record stays; only the text of old finished mail goes.
    expect(mails.map((m) => [m.to_address, m.text_body !== '', m.html_body !== ''])).toEqual([
      ['old-sent@example.org', false, false],
      ['old-failed@example.org', false, false],
      ['recent@example.org', true, true],
      ['waiting@example.org', true, true],
    ])
    expect((await db.selectFrom('sessions').select('token_hash').execute()).map((r) => r.token_hash)).toEqual(['live'])
    expect((await db.selectFrom('invites').select('token_hash').orderBy('id').execute()).map((r) => r.token_hash)).toEqual([
      'used-lately',
      'open',
    ])
    expect((await db.selectFrom('reset_links').select('token_hash').execute()).map((r) => r.token_hash)).toEqual(['reset-open'])
    expect(await db.selectFrom('site_builds').select('id').execute()).toHaveLength(1)
    expect(await db.selectFrom('join_spam').select('id').execute()).toHaveLength(1)

    // Run again, nothing more goes.
    expect(Object.values(await pruneExpired(db)).every((n) => n === 0)).toBe(true)
  })

  it('follows mail.keep_days', async () => {
    // A database of its own: settings are read once and held for a few seconds.
    const other = await openMigrated(path.join(dir, 'other.db'))
    try {
      await other.insertInto('settings').values({ key: 'mail.keep_days', value: '60', updated_at: new Date().toISOString() }).execute()
      const old = (days: number) => ({
        created_at: ago(days),
        kind: 'message' as const,
        to_address: `${days}@example.org`,
        subject: 'Old',
        text_body: 'text',
        html_body: '<p>text</p>',
        give_up_at: ago(days),
        state: 'sent' as const,
        next_attempt_at: ago(days),
        sent_at: ago(days),
      })
      await other
        .insertInto('mail_outbox')
        .values([old(40), old(61)])
        .execute()
      expect((await pruneExpired(other)).mail_texts).toBe(1)
    } finally {
      await other.destroy()
    }
  })
})
