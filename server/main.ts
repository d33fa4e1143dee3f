// Starts the service: reads the environment, migrates the database, builds the site, listens. The only place that listens.
import { createApp, SERVE_OPTIONS } from './app.ts'
import { openMigrated } from './backups/migrate.ts'
import { readEnv } from './env.ts'
import { newSetupLink } from './people/setup.ts'
import { getSetting } from './settings/registry.ts'
import { SiteBuilder } from './site/builder.ts'
import { nextAnnouncementChange } from './announcements/state.ts'
import { calendarStoreFor } from './calendar/store.ts'
import { CalendarWatch } from './calendar/watch.ts'
import { CatalogLoader } from './catalog/loader.ts'
import { Logger, logEvent, useLogger } from './ops/log.ts'
import { BufferedOutput } from './ops/output.ts'
import { stopOnSignals } from './ops/shutdown.ts'
import { BackupSchedule } from './backups/schedule.ts'
import { alertOwnersOfFailedBackup } from './backups/alert.ts'
import { claimDatabase } from './backups/service-lock.ts'
import { createPrivately, tightenPrivateFiles } from './ops/private-files.ts'
import { portTaken } from './ops/port.ts'
import { DISK_FULL, diskFullAt, isDiskFull } from './ops/disk.ts'
import { damagedDatabase, isDamaged } from './backups/damaged.ts'
import { unsubscribeWarning } from './mail/config.ts'
import { MailSender } from './mail/sender.ts'
import { smtpRelay } from './mail/relay.ts'
import { startPush } from './push/sender.ts'
import { DigestSchedule } from './messages/digest-schedule.ts'
import { ReminderSchedule } from './calendar/reminders.ts'

// Before anything is created: the database, its WAL and the backups are readable by this user only.
createPrivately()
const env = (() => {
  try {
    return readEnv()
  } catch (error) {
    console.error(`Cannot start: ${(error as Error).message}`)
    process.exit(1)
  }
})()
if (portTaken(env.port)) {
  console.error(`Cannot start: port ${env.port} is in use by another process; stop that process or choose another PORT`)
  process.exit(1)
}
// Log lines (one per request, one per background event) go to stdout in batches, as text or JSON lines.
const output: BufferedOutput = new BufferedOutput(Bun.stdout.writer(), (count) =>
  log.line('log.dropped', { count, message: `${count} log lines dropped: stdout is not being read fast enough` }),
)
const log = new Logger(env.logFormat, output.write)
useLogger(log)
// A full disk would let the service start and then refuse every write: say so now, in the words /healthz uses.
const full = (() => {
  try {
    return diskFullAt(env.databasePath)
  } catch {
    return null // an unreadable folder is for the next steps to name
  }
})()
if (full) {
  console.error(`Cannot start: ${full} (${env.databasePath})`)
  process.exit(1)
}
// `<database>.pid` says this service uses the file (restore refuses meanwhile); it goes when the process exits.
try {
  claimDatabase(env.databasePath)
} catch (error) {
  console.error((error as Error).message)
  process.exit(1)
}
const db = await openMigrated(env.databasePath, { backupDir: env.backupDir }).catch((error) => {
  if (isDiskFull(error, env.databasePath)) {
    console.error(`Cannot start: ${DISK_FULL} (${env.databasePath}: ${(error as Error).message})`)
    process.exit(1)
  }
  if (!isDamaged(error)) throw error
  console.error(`Cannot start: ${damagedDatabase(env.databasePath, env.backupDir, (error as Error).message)}`)
  process.exit(1)
})
// What an older version left open to others (its WAL and shared memory exist once the database is open).
tightenPrivateFiles(env.databasePath, env.backupDir)
const calendar = calendarStoreFor(env, db)
if (calendar.kind === 'caldav') {
  const kept = await db
    .selectFrom('calendar_site_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  if (Number(kept.n))
    logEvent('calendar.unmoved', {
      message: `${kept.n} events the site kept before CalDAV was configured are not in the collection: run bun server/cli.ts calendar-move-to-store`,
    })
}
// Each build refreshes the local copy the pages are built from; with a CalDAV store, a change made there (from a
// phone) asks for a build within about a minute.
const watch = new CalendarWatch(
  db,
  calendar,
  (reason) => {
    logEvent('calendar.change', { message: 'The calendar store changed; rebuilding the pages' })
    site.request(reason)
  },
  (line) => logEvent('calendar.poll', { message: line }),
)
const site = new SiteBuilder(db, env, {
  nextChange: () => nextAnnouncementChange(db),
  prepare: () => watch.refreshForBuild(),
})
const catalog = new CatalogLoader(db, env.catalogDir, () => site.request('catalog changed'))
await catalog.loadAll()
catalog.watch()
// Mail waiting in the outbox (from before a stop, or a crash) goes out as soon as the service runs.
const mail = env.mail && new MailSender(db, smtpRelay(env.mail))
await mail?.start()
// Pushes go with the mail: queued in the same writes, woken with it.
const push = mail && (await startPush(db, env, mail))
const digest = mail && new DigestSchedule(db, mail, env.publicBaseUrl)
digest?.start()
const reminders = mail && new ReminderSchedule(db, mail, env.publicBaseUrl)
reminders?.start()
const app = await createApp({ db, env, site, catalog, calendar, calendarWatch: watch, log, mail })
// With no earlier build to serve, build before listening so the first visitor gets pages; otherwise
// serve the last build at once and rebuild meanwhile so the pages match the data.
if (!site.currentDir()) await site.build('first start')
else void site.build('start')
site.startPeriodic(await getSetting(db, 'site.rebuild_minutes'))
if (calendar.kind === 'caldav') watch.start(env.caldavPollSeconds)
const backups = new BackupSchedule(
  db,
  { databasePath: env.databasePath, dir: env.backupDir, filesDir: env.filesDir },
  Date.now,
  async (error) => {
    if (mail) await alertOwnersOfFailedBackup(db, mail, error, env.publicBaseUrl)
  },
)
await backups.start()
app.listen({ ...SERVE_OPTIONS, port: env.port })
logEvent('service.start', {
  port: app.server?.port,
  message: `Listening on ${env.publicBaseUrl} (port ${app.server?.port}, database ${env.databasePath})`,
})
const unsubscribeHttp = unsubscribeWarning(env.mail !== null, env.publicBaseUrl)
if (unsubscribeHttp) logEvent('mail.unsubscribe_http', { ok: false, message: unsubscribeHttp })
const setup = await newSetupLink(db, env.publicBaseUrl)
if (setup) logEvent('setup.link', { message: `No owner yet. Create the first owner here (one-time link): ${setup}` })

// SIGTERM or SIGINT: refuse new connections, finish what is under way (bounded), close the database, exit 0.
stopOnSignals({
  server: app.server!,
  timers: [() => catalog.stop(), () => watch.stop()],
  work: [
    () => site.stop(),
    () => backups.stop(),
    async () => digest?.stop(),
    async () => reminders?.stop(),
    async () => mail?.stop(),
    async () => push?.stop(),
  ],
  close: async () => (await catalog.close(), await db.destroy()),
  flushLog: () => {
    log.drain()
    return output.flush()
  },
})
