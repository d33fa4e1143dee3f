// Command line: create-owner, seed-demo, backup PATH, restore PATH, migrate, catalog-check, catalog-schema, caldav-check,
// calendar-move-to-store, mail-check, roster-import FILE.
import { parseArgs } from 'node:util'
import { existsSync, mkdirSync } from 'node:fs'
import { openDatabase } from './db/client.ts'
import { migrate, openMigrated } from './backups/migrate.ts'
import { readEnv } from './env.ts'
import { record, write } from './db/write.ts'
import { createAccount } from './people/accounts.ts'
import { hashPassword } from './auth/passwords.ts'
import { normaliseEmail } from './people/queries.ts'
import { seedDemo } from './people/demo.ts'
import { checkCatalog } from './catalog/check.ts'
import { checkCalendarStore } from './calendar/check.ts'
import { moveToStore } from './calendar/move.ts'
import { CalDavStore } from './calendar/caldav-store.ts'
import { checkMailRelay } from './mail/check.ts'
import { schemaFileText } from './catalog/schema.ts'
import { copyDatabase } from './backups/copy.ts'
import { restoreDatabase } from './backups/restore.ts'
import { backupWithFiles, filesBackupOf } from './backups/files-copy.ts'
import path from 'node:path'
import { createPrivately } from './ops/private-files.ts'
import { rosterImportCommand } from './roster/import-cli.ts'

const USAGE = `Usage: bun server/cli.ts <command>
  create-owner --email E [--password P]   create an owner (password read from stdin when not given)
  seed-demo                                demo people (passwords printed), for trying the site
  backup PATH                              consistent online copy of the database to PATH, the files beside it
  restore PATH                             put a backup in place of the database (the service must be stopped)
  migrate                                  run pending database migrations
  catalog-check [DIR]                      validate every season file (exit 1 on any error)
  catalog-schema [DIR]                     write season.schema.json from the TypeBox source
  caldav-check                             check the calendar in CALDAV_URL (exit 1 with one line saying what is wrong)
  calendar-move-to-store                   move the events the site keeps itself into the CalDAV collection in CALDAV_URL
  mail-check [--to ADDRESS]                check the mail relay in SMTP_URL, or send a test message (exit 1 when it fails)
  roster-import FILE [--unit pack|troop] [--apply]
                                           preview importing households and scouts from a CSV file; --apply writes them`

const [command, ...rest] = process.argv.slice(2)
// Backups and a new database are readable by this user only, whatever the umask.
createPrivately()
const env = readEnv()

async function readStdin(): Promise<string> {
  return (await new Response(Bun.stdin.stream()).text()).split('\n')[0].trim()
}

switch (command) {
  case 'migrate': {
    const db = openDatabase(env.databasePath)
    const done = await migrate(db, { backupDir: env.backupDir })
    console.log(done.length ? `Applied: ${done.join(', ')}` : 'Already up to date')
    await db.destroy()
    break
  }
  case 'create-owner': {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
    })
    if (!values.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email)) fail('create-owner needs --email with an email address')
    const password = values.password ?? (await readStdin())
    if (password.length < 8) fail('The password must have at least 8 characters')
    const db = await openMigrated(env.databasePath, { backupDir: env.backupDir })
    const email = normaliseEmail(values.email!)
    const passwordHash = await hashPassword(password)
    try {
      await write(db, async (trx) => {
        await createAccount(trx, { email, name: values.name ?? null, password_hash: passwordHash, global_role: 'owner', units: [] })
        await record(trx, 'cli', 'people.create_owner', `Created owner ${email} from the command line`)
      })
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error))
    }
    console.log(`Owner ${email} created. Sign in at ${env.publicBaseUrl}/login`)
    await db.destroy()
    break
  }
  case 'seed-demo': {
    const db = await openMigrated(env.databasePath, { backupDir: env.backupDir })
    for (const line of await seedDemo(db)) console.log(line)
    await db.destroy()
    break
  }
  case 'backup': {
    const target = rest[0]
    if (!target) fail('backup needs a target path')
    if (existsSync(target)) fail(`${target} exists already; choose a new file`)
    if (!existsSync(env.databasePath)) fail(`There is no database at ${env.databasePath} (DATABASE_PATH)`)
    // A copy changes nothing: no migration here, the service migrates its own database.
    const db = openDatabase(env.databasePath)
    try {
      mkdirSync(path.dirname(path.resolve(target)), { recursive: true }) // owner-only, as every folder this makes
      await backupWithFiles(env.filesDir, target, () => copyDatabase(db, target))
    } catch (error) {
      fail(`Backup failed: ${error instanceof Error ? error.message : error}`)
    }
    console.log(`Backed up ${env.databasePath} to ${target}, and the files to ${filesBackupOf(target)}`)
    await db.destroy()
    break
  }
  case 'restore': {
    // Exit 1 for every refusal, as the decision fixes: one plain line saying why.
    try {
      if (!rest[0]) throw new Error('restore needs the path of a backup file')
      console.log(await restoreDatabase(env.databasePath, rest[0], Date.now(), env.filesDir))
    } catch (error) {
      console.error(error instanceof Error ? error.message.split('\n')[0] : String(error))
      process.exit(1)
    }
    break
  }
  case 'catalog-check': {
    const report = await checkCatalog(rest[0] ?? env.catalogDir)
    if (report.errors.length) console.log(`Errors (${report.counts.errors}):\n${report.errors.join('\n')}`)
    if (report.warnings.length) console.log(`Warnings (${report.counts.warnings}):\n${report.warnings.join('\n')}`)
    if (!report.errors.length) console.log(`Catalog OK${report.warnings.length ? ' (with warnings)' : ''}`)
    process.exit(report.errors.length ? 1 : 0)
  }
  case 'catalog-schema': {
    const target = path.join(rest[0] ?? env.catalogDir, 'season.schema.json')
    await Bun.write(target, schemaFileText())
    console.log(`Wrote ${target}`)
    break
  }
  case 'caldav-check': {
    // Exit 1, not fail()'s 2: the decision fixes "one plain line and exit 1" for every problem.
    if (!env.caldav) {
      const missing = ['CALDAV_URL', 'CALDAV_USERNAME', 'CALDAV_PASSWORD'].filter((name) => !process.env[name])
      const all = 'CALDAV_URL, CALDAV_USERNAME and CALDAV_PASSWORD'
      console.error(
        `The calendar is not configured: set ${missing.length === 3 ? all : `${missing.join(' and ')} (it needs all of ${all})`}`,
      )
      process.exit(1)
    }
    const result = await checkCalendarStore(env.caldav)
    if (result.ok) console.log(result.line)
    else console.error(result.line)
    process.exit(result.ok ? 0 : 1)
  }
  case 'calendar-move-to-store': {
    if (!env.caldav) {
      console.error('No CalDAV collection is configured: set CALDAV_URL, CALDAV_USERNAME and CALDAV_PASSWORD first (see caldav-check)')
      process.exit(1)
    }
    const db = await openMigrated(env.databasePath, { backupDir: env.backupDir })
    try {
      const { moved, present } = await moveToStore(db, new CalDavStore(env.caldav))
      if (!moved.length && !present.length) console.log('Nothing to move: the site keeps no events of its own')
      else {
        if (moved.length)
          console.log(`Moved ${moved.length} event${moved.length === 1 ? '' : 's'} to ${env.caldav.url}:\n  ${moved.join('\n  ')}`)
        if (present.length) console.log(`Already there (left as the collection holds them):\n  ${present.join('\n  ')}`)
        console.log('Replies and sign-ups are kept. Restart the service so it uses the collection.')
      }
    } catch (error) {
      console.error(`The move stopped: ${error instanceof Error ? error.message : error}. Run it again to go on.`)
      process.exit(1)
    } finally {
      await db.destroy()
    }
    break
  }
  case 'mail-check': {
    // One line and exit 0 or 1, like caldav-check.
    const { values } = parseArgs({ args: rest, options: { to: { type: 'string' } } })
    if (!env.mail) {
      console.error('Mail is not configured: set SMTP_URL (and MAIL_FROM), for example SMTP_URL=smtp://user:password@smtp.example.org:587')
      process.exit(1)
    }
    const result = await checkMailRelay(env.mail, values.to ?? null)
    if (result.ok) console.log(result.line)
    else console.error(result.line)
    process.exit(result.ok ? 0 : 1)
  }
  case 'roster-import': {
    let parsed
    try {
      parsed = parseArgs({ args: rest, allowPositionals: true, options: { unit: { type: 'string' }, apply: { type: 'boolean' } } })
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error))
    }
    const { values, positionals } = parsed
    if (values.unit && values.unit !== 'pack' && values.unit !== 'troop') fail('--unit is pack or troop')
    const db = await openMigrated(env.databasePath, { backupDir: env.backupDir })
    const { code, lines } = await rosterImportCommand(db, positionals[0], values.unit, values.apply ?? false)
    ;(code ? console.error : console.log)(lines.join('\n'))
    await db.destroy()
    process.exit(code)
  }
  default:
    console.log(USAGE)
    process.exit(command ? 2 : 0)
}

function fail(message: string): never {
  console.error(message)
  process.exit(2)
}
