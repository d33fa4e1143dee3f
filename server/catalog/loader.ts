// Loads catalog/*.json into SQLite on start and when a file changes; an invalid file never replaces
// the last good version of its season.
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs'
import path from 'node:path'
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import { nowIso } from '../schemas.ts'
import { warmAutocomplete } from './autocomplete.ts'
import { searchIndex } from './browse.ts'
import { removeSeason, replaceSeason } from './sync.ts'
import { flatten, oneLine, SEASON_FILE_NAME, validateSeason } from './validate.ts'

export const SCHEMA_FILE = 'season.schema.json'

/**
 * Which files of the catalog folder are season files: every `*.json` (any case) except the schema and hidden files
 * (editors' lock and swap files start with a dot). A misnamed one is a season file too, so it is refused by name
 * rather than skipped in silence.
 */
export const isSeasonFile = (name: string) => !name.startsWith('.') && /\.json$/i.test(name) && name !== SCHEMA_FILE

export const seasonFiles = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => (e.isFile() || e.isSymbolicLink()) && isSeasonFile(e.name))
        .map((e) => e.name)
        .sort()
    : []

let versions = 0

export class CatalogLoader {
  private watcher: FSWatcher | null = null
  private pending = new Map<string, Timer>()
  /**
   * Bumped after every change to the stored catalog, so cached answers know they are stale. Versions come from
   * one counter for every loader in the process, so two services in one process (tests) never share one.
   */
  version = 0
  /** The version at which each season last changed: its own answers stay cached while other seasons reload. */
  private seasonVersions = new Map<string, number>()

  constructor(
    private db: Db,
    private dir: string,
    private onChange: () => void,
  ) {}

  /**
   * Loads every file at start without calling `onChange`: whoever starts the loader builds once after it (a
   * build asked for here would race that one and build the site twice).
   */
  async loadAll(): Promise<void> {
    for (const file of seasonFiles(this.dir)) await this.loadFile(file, false)
    // Built once after all files rather than per file: the first search then finds it ready.
    this.warmSearch()
  }

  private warmSearch() {
    searchIndex(this.db, this.version).catch((e) => console.error('search index failed', e))
  }

  watch(): void {
    if (!existsSync(this.dir)) return
    this.watcher = watch(this.dir, (_event, name) => {
      if (!name || !isSeasonFile(name)) return
      clearTimeout(this.pending.get(name))
      this.pending.set(
        name,
        setTimeout(() => void this.loadFile(name).catch((e) => console.error('catalog load failed', e)), 150),
      )
    })
  }

  stop(): void {
    this.watcher?.close()
    for (const timer of this.pending.values()) clearTimeout(timer)
  }

  /** Checks one file and, when it is valid, replaces its season's rows in one transaction. */
  async loadFile(name: string, announce = true): Promise<boolean> {
    const full = path.join(this.dir, name)
    // Only a well-named file stands for a season; a misnamed one is refused and never served.
    const season = SEASON_FILE_NAME.test(name) ? name.replace(/\.json$/, '') : null
    if (!existsSync(full)) {
      await write(this.db, async (trx) => {
        if (season) await removeSeason(trx, season, nowIso())
        await trx.deleteFrom('catalog_files').where('file', '=', name).execute()
        const served = season ? `; season ${season} is no longer served` : ''
        await record(trx, 'system', 'catalog.load', `${oneLine(name)} was removed${served}`)
      })
      if (season) this.changed(season, announce)
      return true
    }
    const { problems, season: file } = validateSeason(name, await Bun.file(full).bytes())
    const now = nowIso()
    await write(this.db, async (trx) => {
      const status = { season, checked_at: now, ok: file ? 1 : 0, problems: JSON.stringify(problems) }
      if (file) {
        const rows = flatten(file)
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
    if (file) this.changed(file.season, announce)
    return !!file
  }

  versionOf(season: string): number {
    return this.seasonVersions.get(season) ?? 0
  }

  private changed(season: string, announce: boolean) {
    this.version = ++versions
    this.seasonVersions.set(season, this.version)
    // The season's autocomplete index is built now rather than by the first bot that asks.
    void warmAutocomplete(this.db, season, this.version)
    if (!announce) return
    this.warmSearch()
    this.onChange()
  }
}
