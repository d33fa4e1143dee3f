// One season file applied to the database: checked and, when valid, its season's rows replaced in one transaction
// with its action-log entry; a removed file stops its season. Run by the load worker on a connection of its own (or
// in the service's thread for an in-memory database).
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import { nowIso } from '../schemas.ts'
import { removeSeason, replaceSeason } from './sync.ts'
import { flatten, oneLine, SEASON_FILE_NAME, validateSeason } from './validate.ts'

export interface Applied {
  /** Loaded, or removed: false when the file was refused. */
  ok: boolean
  /** The season whose served rows may have changed, or null. */
  changed: string | null
}

export async function applySeasonFile(db: Db, dir: string, name: string): Promise<Applied> {
  const full = path.join(dir, name)
  // Only a well-named file stands for a season; a misnamed one is refused and never served.
  const season = SEASON_FILE_NAME.test(name) ? name.replace(/\.json$/, '') : null
  if (!existsSync(full)) {
    await write(db, async (trx) => {
      if (season) await removeSeason(trx, season, nowIso())
      await trx.deleteFrom('catalog_files').where('file', '=', name).execute()
      const served = season ? `; season ${season} is no longer served` : ''
      await record(trx, 'system', 'catalog.load', `${oneLine(name)} was removed${served}`)
    })
    return { ok: true, changed: season }
  }
  const { problems, season: file } = validateSeason(name, await Bun.file(full).bytes())
  const rows = file ? flatten(file) : []
  const now = nowIso()
  await write(db, async (trx) => {
    const status = { season, checked_at: now, ok: file ? 1 : 0, problems: JSON.stringify(problems) }
    if (file) {
      await replaceSeason(trx, file.season, rows, now)
      const warnings = problems.length ? ` with ${problems.length} warnings` : ''
      await record(trx, 'system', 'catalog.load', `Loaded ${oneLine(name)}: ${rows.length} variants${warnings}`)
    } else {
      const errors = problems.filter((p) => p.level === 'error')
      await record(
        trx,
        'system',
        'catalog.load',
        `${oneLine(name)} refused (${errors.length} errors; the last good version stays): ${errors
          .slice(0, 3)
          .map((p) => `${oneLine(p.pointer || '/')}: ${p.message}`)
          .join('; ')}`,
      )
    }
    await trx
      .insertInto('catalog_files')
      .values({ file: name, ...status, loaded_at: file ? now : null })
      .onConflict((oc) => oc.column('file').doUpdateSet(file ? { ...status, loaded_at: now } : status))
      .execute()
  })
  return { ok: !!file, changed: file ? file.season : null }
}
