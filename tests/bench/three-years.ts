// Three years of a busy pack at 3× its pace, then the nightly prune: how big the database grows, how much pruning
// and VACUUM give back, how long the prune takes; and /healthz's time at 100,000 outbox rows. Takes a few minutes
// and about 1 GB of temporary disk, so it is not part of `npm run bench`:
//   bun tests/bench/three-years.ts            (BENCH_WEEKS=52 for a shorter run)
// One week at 1×: 2 leader messages to 60–180 households, the weekly digest to 180, 3 event reminders to 30
// households, 10 sign-ins, 15 site builds, 2 join forms (each alerting 4 leaders), 3 spam posts, 40 history entries.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { createApp, SERVE_OPTIONS } from '../../server/app.ts'
import { type Db } from '../../server/db/client.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { pruneExpired } from '../../server/ops/retention.ts'
import { createAccount } from '../../server/people/accounts.ts'
import { hashPassword } from '../../server/auth/passwords.ts'
import { SiteBuilder } from '../../server/site/builder.ts'

const PACE = 3
const WEEKS = Number(process.env.BENCH_WEEKS ?? 156)
const WEEK = 7 * 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()
let seed = 42
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
const pick = (from: number, to: number) => from + Math.floor(random() * (to - from + 1))
/** Text that differs from mail to mail (a name, a date, a link), as the real ones do. */
const words = 'den meeting camp hike pinewood derby popcorn uniform rank advancement campout permission slip dues'.split(' ')
const prose = (bytes: number) => {
  let s = ''
  while (s.length < bytes) s += `${words[pick(0, words.length - 1)]} ${pick(1, 9999)} `
  return s.slice(0, bytes)
}

/** Simulates `weeks` weeks ending now; stops adding mail at `maxOutbox` rows. */
async function simulate(db: Db, weeks: number, maxOutbox = Infinity) {
  const password_hash = await hashPassword('bench password')
  const leader = await db
    .transaction()
    .execute((trx) => createAccount(trx, { email: 'leader@bench.example', name: null, password_hash, global_role: 'owner', units: [] }))
  const start = Date.now() - weeks * WEEK
  let outbox = 0
  for (let w = 0; w < weeks && outbox < maxOutbox; w++) {
    const at = (offset: number) => iso(start + w * WEEK + offset)
    const mails: { kind: 'message' | 'digest' | 'lead_alert'; to: number; text: number; html: number; message_id: number | null }[] = []
    await db.transaction().execute(async (trx) => {
      for (let m = 0; m < 2 * PACE; m++) {
        const to = pick(60, 180)
        const body = prose(1200)
        const { id } = await trx
          .insertInto('messages')
          .values({
            created_at: at(m * 3_600_000),
            sender_person_id: leader,
            sent_by: 'leader@bench.example',
            subject: prose(40),
            body,
            audience: '{"units":[1]}',
            unit_ids: '[1]',
            recipients: to,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        mails.push({ kind: 'message', to, text: 1500, html: 2600, message_id: id })
      }
      for (let d = 0; d < PACE; d++) mails.push({ kind: 'digest', to: 180, text: 1800, html: 3200, message_id: null })
      for (let r = 0; r < 3 * PACE; r++) mails.push({ kind: 'message', to: 30, text: 700, html: 1400, message_id: null })
      for (let j = 0; j < 2 * PACE; j++) {
        await trx
          .insertInto('leads')
          .values({
            created_at: at(j * 7_200_000),
            parent_name: `Parent ${w}-${j}`,
            email: `parent${w}-${j}@families.example`,
            phone: null,
            unit: 'pack',
            message: prose(120),
            scout_name: null,
            scout_grade: null,
          })
          .execute()
        mails.push({ kind: 'lead_alert', to: 4, text: 600, html: 1200, message_id: null })
      }
      for (let s = 0; s < 3 * PACE; s++)
        await trx
          .insertInto('join_spam')
          .values({ at: at(s), address: '203.0.113.9', payload: prose(400) })
          .execute()
      for (let s = 0; s < 10 * PACE; s++)
        await trx
          .insertInto('sessions')
          .values({
            token_hash: `${w}-${s}-${random()}`,
            person_id: leader,
            created_at: at(s * 60_000),
            last_seen_at: at(s * 60_000),
            expires_at: at(s * 60_000 + 30 * 86_400_000),
            address: '192.168.1.20',
            user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)',
          })
          .execute()
      for (let b = 0; b < 15 * PACE; b++)
        await trx
          .insertInto('site_builds')
          .values({
            started_at: at(b * 600_000),
            finished_at: at(b * 600_000 + 9000),
            duration_ms: 9000,
            ok: 1,
            reason: 'data changed',
            error: null,
          })
          .execute()
      for (let h = 0; h < 40 * PACE; h++)
        await trx
          .insertInto('action_log')
          .values({ at: at(h * 60_000), kind: 'roster.scout_update', actor: 'leader@bench.example', summary: prose(80) })
          .execute()
      for (const mail of mails)
        for (let n = 0; n < mail.to && outbox < maxOutbox; n++, outbox++) {
          const created = at(n * 1000)
          await trx
            .insertInto('mail_outbox')
            .values({
              created_at: created,
              kind: mail.kind,
              to_address: `home${n}@families.example`,
              subject: prose(50),
              text_body: prose(mail.text),
              html_body: prose(mail.html),
              give_up_at: iso(Date.parse(created) + 86_400_000),
              state: n % 200 ? 'sent' : 'failed',
              next_attempt_at: created,
              sent_at: n % 200 ? created : null,
              message_id: mail.message_id,
            })
            .execute()
        }
    })
  }
  return outbox
}

const sizeOf = async (db: Db, file: string) => {
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
  return statSync(file).size
}
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`

const dir = mkdtempSync(path.join(tmpdir(), 'three-years-'))
try {
  const file = path.join(dir, 'years.db')
  const db = await openMigrated(file)
  let t = performance.now()
  const rows = await simulate(db, WEEKS)
  console.log(`${WEEKS} weeks at ${PACE}×: ${rows.toLocaleString('en-US')} outbox rows in ${((performance.now() - t) / 1000).toFixed(0)} s`)
  const before = await sizeOf(db, file)
  t = performance.now()
  const pruned = await pruneExpired(db)
  const pruneMs = performance.now() - t
  const afterPrune = await sizeOf(db, file)
  t = performance.now()
  await sql`vacuum`.execute(db)
  const vacuumMs = performance.now() - t
  const after = await sizeOf(db, file)
  console.log(`database: ${mb(before)} before; ${mb(afterPrune)} after pruning (free pages kept); ${mb(after)} after VACUUM`)
  console.log(`prune: ${(pruneMs / 1000).toFixed(1)} s (${JSON.stringify(pruned)}); VACUUM: ${(vacuumMs / 1000).toFixed(1)} s`)
  await db.destroy()

  // /healthz over HTTP at 100,000 outbox rows, as a monitor on the LAN asks it (it sees the mail counts).
  const env = readEnv({ DATABASE_PATH: path.join(dir, 'health.db'), PORT: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:1' })
  const hdb = await openMigrated(env.databasePath)
  await simulate(hdb, WEEKS, 100_000)
  const count = await hdb
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  const page = `const d = process.env.SITE_OUT_DIR; require('fs').mkdirSync(d, { recursive: true }); for (const f of ['index.html', '404.html']) require('fs').writeFileSync(d + '/' + f, 'x')`
  const site = new SiteBuilder(hdb, env, { command: [process.execPath, '-e', page] })
  await site.build('bench')
  const app = await createApp({ db: hdb, env, site })
  app.listen({ ...SERVE_OPTIONS, port: 0, hostname: '127.0.0.1' })
  const url = `http://127.0.0.1:${app.server!.port}/healthz`
  const times: number[] = []
  for (let i = 0; i < 550; i++) {
    const started = performance.now()
    const res = await fetch(url)
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`)
    if (i >= 50) times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2)
  console.log(
    `/healthz at ${Number(count.n).toLocaleString('en-US')} outbox rows, ${times.length} calls: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
  )
  await site.stop()
  await app.stop(true)
  await hdb.destroy()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
