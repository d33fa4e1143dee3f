// GET /healthz's checks: a registry of small, fast checks (database, site, catalog, calendar), each with its
// schema for the API docs. The service is healthy when every required check passes; the others only report.
import { type TProperties, type TSchema } from '@sinclair/typebox'
import { sql } from 'kysely'
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { Services } from '../services.ts'
import { t } from '../schemas.ts'
import { lastBackup } from '../backups/status.ts'
import { filesCheck } from '../files/health.ts'
import { unsubscribeWarning } from '../mail/config.ts'
import { outboxStatus } from '../mail/outbox.ts'
import { diskFullAt, FREE_FLOOR_BYTES, freeBytes } from '../ops/disk.ts'
import { errorText, logEvent } from '../ops/log.ts'

/** A check that has not answered by then fails, so /healthz answers in about this long at worst. */
export const CHECK_TIMEOUT_MS = 2000

export interface HealthCheck {
  /** A failing required check makes /healthz answer 503; a failing optional one shows `ok: false` only. */
  required: boolean
  /** One line for the API docs. */
  description: string
  /** What the check answers besides `ok`, `required` and `error` (for the API docs and the contract tests). */
  fields: TProperties
  /** Those fields in a passing answer, for the API docs. */
  example: Record<string, unknown>
  /** Whether the check applies to this service (the calendar only when configured); always when absent. */
  applies?: (services: Services) => boolean
  /**
   * Runs the check: fast, no outside request, never a secret, path or URL in the answer (the endpoint is public).
   * Throwing (or not answering within CHECK_TIMEOUT_MS) fails the check; the reason goes to the log.
   */
  run(services: Services, asker: Asker): Promise<{ ok: boolean; error?: string } & Record<string, unknown>>
}

/** Who asks: a caller on the LAN (a monitor beside the service) sees details a stranger could misuse. */
export interface Asker {
  lan: boolean
}

const when = (iso: string | null | undefined) => (iso ? Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000)) : null)

const bytes = (description: string) => t.Union([t.Integer({ minimum: 0 }), t.Null()], { description })

const database: HealthCheck = {
  required: true,
  description: 'The database answers a trivial query and its disk can take a write',
  fields: {
    ms: t.Number({ minimum: 0, description: 'How long the query took, in milliseconds' }),
    free_bytes: bytes(
      `Free space on the disk holding the database; below ${FREE_FLOOR_BYTES / 1024 / 1024} MiB a small file must fit there`,
    ),
    backup_free_bytes: bytes('Free space on the disk holding the backup folder'),
  },
  example: { ms: 0.08, free_bytes: 12_884_901_888, backup_free_bytes: 12_884_901_888 },
  async run({ db, env }) {
    const started = performance.now()
    const ms = () => Math.round((performance.now() - started) * 100) / 100
    const space = { free_bytes: freeBytes(path.dirname(path.resolve(env.databasePath))), backup_free_bytes: freeBytes(env.backupDir) }
    try {
      await sql`select count(*) as n from sqlite_master`.execute(db)
    } catch (error) {
      logEvent('health.database', { ok: false, message: `The database did not answer: ${errorText(error)}` })
      const code = (error as { code?: unknown }).code
      return {
        ok: false,
        ms: ms(),
        ...space,
        error: typeof code === 'string' && /^SQLITE_\w+$/.test(code) ? code : 'The database did not answer',
      }
    }
    // Reading proves little: a full disk still answers reads while every write fails.
    const full = diskFullAt(env.databasePath)
    if (full) logEvent('health.database', { ok: false, free_bytes: space.free_bytes, message: full })
    return { ok: !full, ms: ms(), ...space, ...(full ? { error: full } : {}) }
  },
}

const site: HealthCheck = {
  required: true,
  description: 'A complete build is served and the last build succeeded',
  fields: {
    served: t.Boolean({ description: 'A complete build is being served' }),
    building: t.Boolean({ description: 'A build is asked for or under way' }),
    last_build_ok: t.Union([t.Boolean(), t.Null()], { description: 'How the last build ended; null before the first' }),
    last_build_at: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'When the last build finished' }),
    age_seconds: t.Union([t.Integer({ minimum: 0 }), t.Null()], { description: 'Seconds since the last build finished' }),
  },
  example: { served: true, building: false, last_build_ok: true, last_build_at: '2026-11-23T08:00:01.300Z', age_seconds: 420 },
  async run({ db, site }) {
    const last = await db.selectFrom('site_builds').select(['ok', 'finished_at']).orderBy('id', 'desc').limit(1).executeTakeFirst()
    let dir = site?.currentDir() ?? null
    // The served build lost its files (a cleaned folder): say so, and let the builder find or make another.
    if (dir && !existsSync(path.join(dir, '404.html'))) dir = site!.lost()
    const served = dir !== null
    const lastOk = last ? last.ok === 1 : null
    const ok = served && lastOk === true
    return {
      ok,
      ...(ok ? {} : { error: served ? 'The last site build failed; the pages are stale' : 'No complete site build is served yet' }),
      served,
      building: site?.busy ?? false,
      last_build_ok: lastOk,
      last_build_at: last?.finished_at ?? null,
      age_seconds: when(last?.finished_at),
    }
  },
}

const catalog: HealthCheck = {
  required: false,
  description: 'Every season file is loaded; a refused file keeps its last good version served',
  fields: {
    loaded: t.Integer({ minimum: 0, description: 'Season files loaded as they are now' }),
    refused: t.Integer({ minimum: 0, description: 'Season files refused at their last change' }),
  },
  example: { loaded: 3, refused: 0 },
  async run({ db }) {
    const rows = await db
      .selectFrom('catalog_files')
      .select(['ok', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('ok')
      .execute()
    const count = (ok: number) => Number(rows.find((r) => r.ok === ok)?.n ?? 0)
    const ok = count(0) === 0
    return {
      ok,
      loaded: count(1),
      refused: count(0),
      ...(ok ? {} : { error: 'A season file was refused; its last good version is served' }),
    }
  },
}

const calendar: HealthCheck = {
  required: false,
  description: 'The CalDAV store answered when last asked (a poll about once a minute); only when CalDAV is configured',
  fields: {
    checked_at: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'When the store was last asked; null before that' }),
  },
  example: { checked_at: '2026-11-23T08:06:40.000Z' },
  applies: (s) => s.calendar.kind === 'caldav',
  async run({ calendarWatch }) {
    const last = calendarWatch?.lastContact ?? null
    return last === null || last.ok
      ? { ok: true, checked_at: last?.at ?? null }
      : { ok: false, checked_at: last.at, error: 'The calendar store did not answer; the pages keep the last copy' }
  },
}

/**
 * The checks, by the key they answer under: adding one is one line here (its module exports a HealthCheck).
 * A required check makes the whole service unhealthy (503) when it fails: only for what breaks the site itself.
 */
const backup: HealthCheck = {
  required: false,
  description: 'The daily backup is working: the last attempt succeeded and one succeeded within 26 hours',
  fields: {
    last_at: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'When the newest good backup was finished' }),
    age_seconds: t.Union([t.Integer({ minimum: 0 }), t.Null()], { description: 'Seconds since then' }),
  },
  example: { last_at: '2026-11-23T09:00:05.120Z', age_seconds: 3600 },
  async run({ db }) {
    const status = await lastBackup(db)
    // The recorded error may name folders; the public answer says only where to look.
    return {
      ok: status.ok,
      last_at: status.at,
      age_seconds: when(status.at),
      ...(status.ok ? {} : { error: 'The backup is failing or late; the history page (Backups) says why' }),
    }
  },
}

const proxy: HealthCheck = {
  required: false,
  description:
    'No reverse proxy on this machine forwards client addresses unnamed: a loopback peer sending X-Forwarded-For, Forwarded or ' +
    'X-Real-IP while TRUST_PROXY does not name it fails this check (its clients count as unknown, never the LAN)',
  fields: {
    untrusted_proxy_since: t.Union([t.String({ format: 'date-time' }), t.Null()], {
      description: 'When such a request first came; null when none has',
    }),
  },
  example: { untrusted_proxy_since: null },
  async run({ addresses }) {
    const since = addresses.untrustedProxySince
    return since === null
      ? { ok: true, untrusted_proxy_since: null }
      : { ok: false, untrusted_proxy_since: since, error: 'A reverse proxy on this machine forwards client addresses: set TRUST_PROXY' }
  },
}

const mail: HealthCheck = {
  required: false,
  description: 'Mail goes out: configured (SMTP_URL) with nothing waiting after a failed attempt, or not configured with nothing queued',
  fields: {
    configured: t.Boolean({ description: 'SMTP_URL is set' }),
    // A stranger watching these could tell when "Forgot your password?" mailed someone, so whether an account exists.
    queued: t.Optional(t.Integer({ minimum: 0, description: 'Mails waiting to be sent (asked from the LAN only)' })),
    last_sent_at: t.Optional(
      t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'When a mail last went out (asked from the LAN only)' }),
    ),
    last_failed_at: t.Optional(
      t.Union([t.String({ format: 'date-time' }), t.Null()], {
        description: 'When an attempt last failed: the relay refused it or could not be reached (asked from the LAN only)',
      }),
    ),
    possible_repeats: t.Optional(
      t.Integer({
        minimum: 0,
        description:
          'Mail of the last 30 days that may have arrived twice: an attempt reached the final dot of DATA and the service stopped or the connection was lost before the relay answered, so it went again with the same Message-ID (asked from the LAN only)',
      }),
    ),
    warning: t.Optional(
      t.String({ description: 'Something to fix that does not stop mail: an unsubscribe link that is not https (PUBLIC_BASE_URL)' }),
    ),
  },
  example: { configured: true, queued: 0, last_sent_at: '2026-11-23T18:00:04.000Z', last_failed_at: null, possible_repeats: 0 },
  async run({ db, mail, env }, { lan }) {
    const { retrying, ...status } = await outboxStatus(db)
    const configured = mail !== null
    const warning = unsubscribeWarning(configured, env.publicBaseUrl)
    const shown = { configured, ...(lan ? status : {}), ...(warning ? { warning } : {}) }
    if (!configured)
      return status.queued ? { ok: false, ...shown, error: 'Mail is waiting but SMTP_URL is not set' } : { ok: true, ...shown }
    return retrying
      ? { ok: false, ...shown, error: 'The mail relay refused or did not answer; mail waits and is retried' }
      : { ok: true, ...shown }
  },
}

export const CHECKS: Record<string, HealthCheck> = { database, site, catalog, calendar, backup, proxy, mail, files: filesCheck }

const common = {
  ok: t.Boolean({ description: 'The check passed' }),
  required: t.Boolean({ description: 'A failure of this check makes the service unhealthy (503)' }),
}

function checkSchema(name: string, check: HealthCheck): TSchema {
  const answered = t.Object(
    { ...common, ...check.fields, error: t.Optional(t.String({ description: 'Why it failed, in words' })) },
    { additionalProperties: false },
  )
  const failed = t.Object(
    { ...common, error: t.String({ description: 'The check itself failed or did not answer in time (details in the service log)' }) },
    { additionalProperties: false },
  )
  return t.Union([answered, failed], { description: `${name}: ${check.description}${check.required ? ' (required)' : ''}` })
}

const passing = Object.fromEntries(Object.entries(CHECKS).map(([name, c]) => [name, { ok: true, required: c.required, ...c.example }]))
const EXAMPLE = { ok: true, status: 'ok', problems: [], checks: passing }
const UNHEALTHY = {
  ok: false,
  status: 'unhealthy',
  problems: ['site: The last site build failed; the pages are stale'],
  checks: {
    ...passing,
    site: { ...passing.site, ok: false, last_build_ok: false, error: 'The last site build failed; the pages are stale' },
  },
}

const healthSchema = (example: object) =>
  t.Object(
    {
      ok: t.Boolean({ description: 'Every required check passed' }),
      status: t.Union([t.Literal('ok'), t.Literal('degraded'), t.Literal('unhealthy')], {
        description:
          '`ok`: every check passed; `degraded`: the service works but an optional check failed (a failing or late backup among them), so someone should look; `unhealthy`: a required check failed (503)',
      }),
      problems: t.Array(t.String(), { description: 'Each failed check in one sentence, `name: why`; empty when all pass' }),
      checks: t.Object(
        Object.fromEntries(
          Object.entries(CHECKS).map(([name, check]) => [
            name,
            check.applies ? t.Optional(checkSchema(name, check)) : checkSchema(name, check),
          ]),
        ),
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false, examples: [example] },
  )

export const Health = healthSchema(EXAMPLE)
/** The same answer when unhealthy, with an example that shows a failed required check. */
export const Unhealthy = healthSchema(UNHEALTHY)

async function runCheck(name: string, check: HealthCheck, services: Services, asker: Asker) {
  let timer: Timer | undefined
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)
    })
    const { ok, ...details } = await Promise.race([check.run(services, asker), timeout])
    return { ok, required: check.required, ...details }
  } catch (error) {
    logEvent('health.check', { check: name, ok: false, message: `The ${name} check failed: ${errorText(error)}` })
    return { ok: false, required: check.required, error: 'The check failed; the service log says why' }
  } finally {
    clearTimeout(timer)
  }
}

/** Runs every check that applies, side by side; `ok` when every required one passed. */
export async function health(
  services: Services,
  asker: Asker,
): Promise<{
  ok: boolean
  status: 'ok' | 'degraded' | 'unhealthy'
  problems: string[]
  checks: Record<string, { ok: boolean; required: boolean }>
}> {
  const names = Object.keys(CHECKS).filter((name) => CHECKS[name].applies?.(services) ?? true)
  const results = await Promise.all(names.map((name) => runCheck(name, CHECKS[name], services, asker)))
  const ok = results.every((r) => r.ok || !r.required)
  const problems = names.flatMap((name, i) => (results[i].ok ? [] : [`${name}: ${results[i].error ?? 'failed'}`]))
  return {
    ok,
    status: !ok ? 'unhealthy' : problems.length ? 'degraded' : 'ok',
    problems,
    checks: Object.fromEntries(names.map((name, i) => [name, results[i]])),
  }
}
