// The site's last builds, as admins see them, and asking for a rebuild.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record } from '../db/write.ts'
import { Instant, Nullable, t } from '../schemas.ts'
import type { SiteBuilder } from './builder.ts'

const Build = t.Object(
  {
    id: t.Integer(),
    started_at: Instant,
    finished_at: Instant,
    duration_ms: t.Integer(),
    ok: t.Boolean(),
    reason: t.String(),
    error: Nullable(t.String({ description: 'The end of the build output, when it failed' })),
  },
  { additionalProperties: false },
)
const BUILD_EXAMPLE = {
  id: 57,
  started_at: '2026-11-23T08:00:00.000Z',
  finished_at: '2026-11-23T08:00:01.300Z',
  duration_ms: 1300,
  ok: true,
  reason: 'data changed',
  error: null,
}

export const SiteStatus = t.Object(
  {
    last: Nullable(Build),
    last_good: Nullable(Build),
    building: t.Boolean({ description: 'A build is asked for or under way' }),
    builds: t.Array(Build, { description: 'The last ten, newest first' }),
  },
  { additionalProperties: false, examples: [{ last: BUILD_EXAMPLE, last_good: BUILD_EXAMPLE, building: false, builds: [BUILD_EXAMPLE] }] },
)

export async function siteStatus(db: Executor, site: SiteBuilder | null) {
  const builds = (await db.selectFrom('site_builds').selectAll().orderBy('id', 'desc').limit(10).execute()).map((b) => ({
    ...b,
    ok: b.ok === 1,
  }))
  return { last: builds[0] ?? null, last_good: builds.find((b) => b.ok) ?? null, building: site?.busy ?? false, builds }
}

export const RebuildQueued = t.Object(
  { queued: t.Boolean({ description: 'false when this service builds no site (tests)' }) },
  { additionalProperties: false, examples: [{ queued: true }] },
)

export async function askForRebuild(db: Db, caller: Caller, site: SiteBuilder | null) {
  // Not write(): the request changes no row, so its log entry is the one insert (see record()).
  await record(db, caller.actor, 'site.rebuild', 'Asked for a site rebuild')
  site?.request('asked by ' + caller.actor)
  return { queued: site !== null }
}
