// Every migration state main ever shipped upgrades: a database made by each (tests/fixtures/past-databases) starts
// the service, keeps its rows, and the join form, a message, a mailed invite and "Forgot your password?" all mail.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDatabase } from '../../server/db/client.ts'
import { migrate } from '../../server/backups/migrate.ts'
import { schemaShape, shapeDifferences } from '../../server/db/schema-check.ts'
import { addHousehold } from '../households.ts'
import { ROLES, startServer, uniqueEmail } from '../helpers.ts'
import { startRelay, type TestRelay } from '../mail.ts'
import index from '../fixtures/past-databases/index.json'

let relay: TestRelay
beforeAll(async () => {
  relay = await startRelay()
})
afterAll(() => relay.close())

const fixture = async (commit: string) =>
  Bun.gunzipSync(await Bun.file(path.join(import.meta.dir, '..', 'fixtures', 'past-databases', `${commit}.db.gz`)).bytes())

describe('a database made at each past migration state', () => {
  for (const { commit, state } of index) {
    it(`${commit} (${state}) upgrades, keeps its rows and mails`, async () => {
      const s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'pack@example.org' }, { database: await fixture(commit) })
      try {
        // The schema is the one a fresh database gets (the start checks it too) and the rows made at that commit stay.
        const fresh = openDatabase(':memory:')
        await migrate(fresh)
        expect(shapeDifferences(await schemaShape(s.db), await schemaShape(fresh))).toEqual([])
        await fresh.destroy()
        const old = await s.db
          .selectFrom('people')
          .select(['email', 'lead_alerts'])
          .where('email', '=', 'old-leader@example.org')
          .executeTakeFirst()
        expect(old).toEqual({ email: 'old-leader@example.org', lead_alerts: 1 })
        const oldHousehold = await s.db
          .selectFrom('households')
          .select(['parent_name', 'lead_id'])
          .where('email', '=', 'pat@example.org')
          .executeTakeFirst()
        const oldMail = await s.db
          .selectFrom('mail_outbox')
          .select(['state', 'priority', 'give_up_at'])
          .where('to_address', '=', 'pat@example.org')
          .executeTakeFirst()
        if (commit !== '462cf8e') expect(oldHousehold).toEqual({ parent_name: 'Pat Older', lead_id: 1 })
        if (oldMail) expect(oldMail).toEqual({ state: 'sent', priority: 1, give_up_at: '2026-11-26T12:00:00.000Z' })

        const leader = await s.as(ROLES.packLeader)
        const owner = await s.as(ROLES.owner)
        const join = await s.req('POST', '/api/join', { json: { parent_name: 'New Family', email: uniqueEmail('joined'), unit: 'pack' } })
        expect(join.status).toBe(201)
        expect((await relay.waitFor(leader.email)).subject).toContain('family')

        const family = uniqueEmail('family')
        await addHousehold(s.db, { unit: 'pack', email: family })
        const message = await s.req('POST', '/api/admin/messages', {
          cookie: owner.cookie,
          json: { subject: `Upgraded ${commit}`, body: 'Still here.', audience: { units: ['pack'] } },
        })
        expect(message.status).toBe(201)
        expect((await relay.waitFor(family)).subject).toBe(`Upgraded ${commit}`)

        const invited = uniqueEmail('invited')
        const invite = await s.req('POST', '/api/admin/people/invite', {
          cookie: owner.cookie,
          json: { email: invited, global_role: 'admin', send_email: true },
        })
        expect(invite.status).toBe(201)
        await relay.waitFor(invited)

        const member = await s.person(ROLES.member)
        const forgot = await s.req('POST', '/api/forgot', { json: { email: member.email } })
        expect(forgot.status).toBe(202)
        expect((await relay.waitFor(member.email)).text).toContain('/reset/')
      } finally {
        await s.stop()
      }
    })
  }
})

describe('restore', () => {
  it('takes a backup made before a migration was renamed (its old name is known) and the service starts on it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'past-restore-'))
    try {
      const backup = path.join(dir, 'old-backup.db')
      writeFileSync(backup, await fixture('68046f3'))
      const root = path.join(import.meta.dir, '..', '..')
      const run = Bun.spawnSync([process.execPath, path.join(root, 'server/cli.ts'), 'restore', backup], {
        cwd: root,
        env: { ...process.env, DATABASE_PATH: path.join(dir, 'site.db') },
      })
      expect([run.exitCode, run.stderr.toString()]).toEqual([0, ''])
      const s = await startServer({}, { database: await Bun.file(path.join(dir, 'site.db')).bytes() })
      expect(await s.db.selectFrom('people').select('name').where('email', '=', 'old-leader@example.org').executeTakeFirst()).toEqual({
        name: 'Old Leader',
      })
      await s.stop()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
