// Starts the service: reads the environment, migrates the database, builds the site, listens. The only place that listens.
import { createApp, SERVE_OPTIONS } from './app.ts'
import { openMigrated } from './db/client.ts'
import { readEnv } from './env.ts'
import { newSetupLink } from './people/setup.ts'
import { getSetting } from './settings/registry.ts'
import { type BuildOutcome, SiteBuilder } from './site/builder.ts'
import { nextAnnouncementChange } from './announcements/state.ts'
import { calendarStoreFor } from './calendar/store.ts'
import { CalendarWatch } from './calendar/watch.ts'
import { CatalogLoader } from './catalog/loader.ts'

const env = readEnv()
const db = await openMigrated(env.databasePath)
const calendar = calendarStoreFor(env)
// The calendar is kept elsewhere: each build refreshes the local copy the pages are built from, and a
// change made in the store (from a phone) asks for a build within about a minute.
const watch = calendar && new CalendarWatch(db, calendar, (reason) => site.request(reason))
const site = new SiteBuilder(db, env, {
  nextChange: () => nextAnnouncementChange(db),
  prepare: async () => watch?.refreshForBuild(),
})
const catalog = new CatalogLoader(db, env.catalogDir, () => site.request('catalog changed'))
await catalog.loadAll()
catalog.watch()
const app = await createApp({ db, env, site, catalog, calendar })
const built = (b: BuildOutcome) => console.log(b.ok ? `Site built in ${b.duration_ms} ms` : `Site build failed: ${b.error}`)
// With no earlier build to serve, build before listening so the first visitor gets pages; otherwise
// serve the last build at once and rebuild meanwhile so the pages match the data.
if (!site.currentDir()) built(await site.build('first start'))
else site.build('start').then(built)
site.startPeriodic(await getSetting(db, 'site.rebuild_minutes'))
watch?.start(env.caldavPollSeconds)
app.listen({ ...SERVE_OPTIONS, port: env.port })
console.log(`Listening on ${env.publicBaseUrl} (port ${app.server?.port}, database ${env.databasePath})`)
const setup = await newSetupLink(db, env.publicBaseUrl)
if (setup) console.log(`No owner yet. Create the first owner here (one-time link): ${setup}`)

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    catalog.stop()
    watch?.stop()
    await site.stop()
    await app.stop()
    await db.destroy()
    process.exit(0)
  })
