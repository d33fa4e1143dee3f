// Environment configuration, read and validated once at start, then frozen.
import path from 'node:path'
import { parseRanges } from './http/outbound.ts'
import { LOG_FORMATS, type LogFormat } from './ops/log.ts'
import { type MailConfig, mailConfig } from './mail/config.ts'

export interface Env {
  port: number
  databasePath: string
  publicBaseUrl: string
  adminToken: string | null
  trustProxy: string[]
  lanCidrs: string[]
  /** Private addresses the service may call when a setting or the publisher names them (OUTBOUND_ALLOW, CIDRs). */
  outboundAllow: string[]
  caldav: { url: string; username: string; password: string } | null
  /** How often the calendar store is asked whether anything changed (CALDAV_POLL_SECONDS, default 60). */
  caldavPollSeconds: number
  /** Where this database's site builds are written; `current` links to the one being served. */
  siteBuildsDir: string
  /** How much lower than the service's the site build's CPU priority is (SITE_BUILD_NICENESS, 0-19, default 10). */
  siteBuildNiceness: number
  /** The season catalog files (catalog/ in the repository by default). */
  catalogDir: string
  /** How log lines are written (LOG_FORMAT): plain text, or one JSON object per line. */
  logFormat: LogFormat
  /** Where the daily and before-migration backups go (BACKUP_DIR; `backups/` beside the database by default). */
  backupDir: string
  /** Uploaded files, their web sizes and event photos (FILES_DIR; `files/<database file name>/` beside the database by default). */
  filesDir: string
  /** The SMTP relay and sender address (SMTP_URL, MAIL_FROM); null when mail is not set up. */
  mail: MailConfig | null
  /** The signing secret of the Stripe webhook (STRIPE_WEBHOOK_SECRET, `whsec_…`); null when online payments are not set up. */
  stripeWebhookSecret: string | null
}

const DEFAULT_LAN = ['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', 'fc00::/7', 'fe80::/10']

const MIN_ADMIN_TOKEN = 32

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/**
 * A token a person made up rather than a generator: fewer than 10 different characters, a short pattern repeated
 * ("abcabc…", "0123456789abcdef0123…"), or mostly a run ("0123456789abcdefghij…"). A random token of 32 characters or
 * more is none of these but by a chance too small to matter.
 */
export function plainlyNotRandom(token: string): boolean {
  if (new Set(token).size < 10) return true
  for (let period = 1; period <= token.length / 2; period++) if ([...token.slice(period)].every((char, i) => char === token[i])) return true
  let steps = 0
  for (let i = 1; i < token.length; i++) if (Math.abs(token.charCodeAt(i) - token.charCodeAt(i - 1)) === 1) steps++
  return steps * 2 > token.length - 1
}

/** The webhook signing secret as Stripe shows it; another shape is a mistake worth refusing at start. */
function stripeSecret(value: string | undefined): string | null {
  if (!value) return null
  if (!/^whsec_[A-Za-z0-9+/=]{16,}$/.test(value))
    throw new Error("STRIPE_WEBHOOK_SECRET must be the webhook's signing secret as Stripe shows it, starting whsec_")
  return value
}

/** Builds the configuration from a variables object (process.env by default); throws on bad values. */
export function readEnv(vars: Record<string, string | undefined> = process.env): Readonly<Env> {
  const port = Number(vars.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0-65535, got ${vars.PORT}`)
  const publicBaseUrl = (vars.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '')
  new URL(publicBaseUrl) // throws on a malformed URL
  const databasePath = vars.DATABASE_PATH ?? 'data/site.db'
  const caldav =
    vars.CALDAV_URL && vars.CALDAV_USERNAME && vars.CALDAV_PASSWORD
      ? { url: vars.CALDAV_URL, username: vars.CALDAV_USERNAME, password: vars.CALDAV_PASSWORD }
      : null
  const caldavPollSeconds = Number(vars.CALDAV_POLL_SECONDS ?? 60)
  if (!Number.isInteger(caldavPollSeconds) || caldavPollSeconds < 1 || caldavPollSeconds > 3600)
    throw new Error(`CALDAV_POLL_SECONDS must be 1-3600, got ${vars.CALDAV_POLL_SECONDS}`)
  const siteBuildNiceness = Number(vars.SITE_BUILD_NICENESS || 10)
  if (!Number.isInteger(siteBuildNiceness) || siteBuildNiceness < 0 || siteBuildNiceness > 19)
    throw new Error(`SITE_BUILD_NICENESS must be 0-19, got ${vars.SITE_BUILD_NICENESS}`)
  // The break-glass token opens most of the admin API from the LAN: a short one could be guessed.
  const token = vars.ADMIN_TOKEN
  if (token && token.length < MIN_ADMIN_TOKEN)
    throw new Error(
      `ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN} characters (it has ${token.length}); make one with: openssl rand -base64 32`,
    )
  // A header never carries spaces at its ends, and "aaaa…" is no secret: ask for a random token.
  if (token && (/[\s\u0000-\u001f\u007f]/.test(token) || plainlyNotRandom(token)))
    throw new Error(
      'ADMIN_TOKEN must be a random token without spaces, not a repeated pattern or a run like abcd… (at least 10 different characters); make one with: openssl rand -base64 32',
    )
  const outboundAllow = list(vars.OUTBOUND_ALLOW)
  parseRanges(outboundAllow) // throws on an entry that is not an address range
  const logFormat = (vars.LOG_FORMAT || 'text') as LogFormat
  if (!LOG_FORMATS.includes(logFormat)) throw new Error(`LOG_FORMAT must be ${LOG_FORMATS.join(' or ')}, got ${vars.LOG_FORMAT}`)
  return Object.freeze({
    port,
    logFormat,
    databasePath,
    publicBaseUrl,
    adminToken: vars.ADMIN_TOKEN ? vars.ADMIN_TOKEN : null,
    trustProxy: list(vars.TRUST_PROXY),
    lanCidrs: vars.LAN_CIDRS ? list(vars.LAN_CIDRS) : DEFAULT_LAN,
    outboundAllow,
    caldav,
    caldavPollSeconds,
    mail: mailConfig(vars),
    stripeWebhookSecret: stripeSecret(vars.STRIPE_WEBHOOK_SECRET),
    catalogDir: path.resolve(vars.CATALOG_DIR ?? path.join(import.meta.dir, '..', 'catalog')),
    // One folder per database file (two services in one folder never prune each other's site);
    // absolute, because the site build runs in another working directory.
    siteBuildsDir: path.resolve(vars.SITE_BUILDS_DIR ?? path.join(path.dirname(databasePath), 'site-builds', path.basename(databasePath))),
    filesDir: path.resolve(vars.FILES_DIR || path.join(path.dirname(databasePath), 'files', path.basename(databasePath))),
    backupDir: path.resolve(vars.BACKUP_DIR || path.join(path.dirname(databasePath), 'backups')),
    siteBuildNiceness,
  })
}
