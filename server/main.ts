// Starts the service: reads the environment, migrates the database, listens. The only place that listens.
import { createApp } from './app.ts'
import { openMigrated } from './db/client.ts'
import { readEnv } from './env.ts'
import { newSetupLink } from './people/setup.ts'

const env = readEnv()
const db = await openMigrated(env.databasePath)
const app = await createApp({ db, env })
app.listen({ port: env.port, maxRequestBodySize: 16 * 1024 * 1024 })
console.log(`Listening on ${env.publicBaseUrl} (port ${app.server?.port}, database ${env.databasePath})`)
const setup = await newSetupLink(db, env.publicBaseUrl)
if (setup) console.log(`No owner yet. Create the first owner here (one-time link): ${setup}`)

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    await app.stop()
    await db.destroy()
    process.exit(0)
  })
