// Loads catalog/*.json into SQLite on start and when a file changes; an invalid file never replaces
// the last good version of its season.
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs'
import type { Db } from '../db/client.ts'
import { type Applied, applySeasonFile } from './apply.ts'
import { warmAutocomplete } from './autocomplete.ts'
import { databaseFile } from './database-file.ts'
import { closeSearch, searchIndex } from './search-index.ts'
import { WorkerClient } from './worker-client.ts'

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
/** How long after a watched change the search index is rebuilt, unless another change comes first. */
const SEARCH_SETTLE_MS = 300
// Ended a moment after the last load, so what reading big files grew is handed back rather than kept.
const loadWorker = new WorkerClient(new URL('./load-worker.ts', import.meta.url), { idleMs: 1000 })

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

  private searchSoon: Timer | undefined

  private warmSearch() {
    // The load worker, idle once files are loaded, ends first: its heap and the index build's are never held at once.
    searchIndex(this.db, this.version, loadWorker.stopIdle()).catch((e) => console.error('search index failed', e))
  }

  watch(): void {
    if (!existsSync(this.dir)) return
    this.watcher = watch(this.dir, (_event, name) => {
      if (!name || !isSeasonFile(name)) return
      clearTimeout(this.pending.get(name))
      this.pending.set(
        name,
        setTimeout(() => {
          this.pending.delete(name)
          void this.loadFile(name).catch((e) => console.error('catalog load failed', e))
        }, 150),
      )
    })
  }

  stop(): void {
    this.cold.clear()
    clearTimeout(this.searchSoon)
    this.watcher?.close()
    for (const timer of this.pending.values()) clearTimeout(timer)
  }

  /** Closes the search worker's connection to the database, before the service closes its own. */
  close(): Promise<void> {
    return closeSearch(this.db)
  }

  /**
   * Checks one file and, when it is valid, replaces its season's rows in one transaction: in the load worker, on a
   * connection of its own, so reading, checking and writing a big file never hold other requests.
   */
  async loadFile(name: string, announce = true): Promise<boolean> {
    this.loading++
    try {
      const database = await databaseFile(this.db)
      const { ok, changed } = database
        ? await loadWorker.ask<Applied>({ database, dir: this.dir, name })
        : await applySeasonFile(this.db, this.dir, name)
      if (changed) this.changed(changed, announce)
      return ok
    } finally {
      this.loading--
    }
  }

  /** Files being loaded, or waiting for their change to settle. */
  private loading = 0

  /** Rebuilds the search index once the files changed together are all loaded. */
  private settleSearch() {
    clearTimeout(this.searchSoon)
    this.searchSoon = setTimeout(() => (this.loading || this.pending.size ? this.settleSearch() : this.warmSearch()), SEARCH_SETTLE_MS)
  }

  private cold = new Set<string>()
  private warming = false

  /**
   * Builds changed seasons' autocomplete indexes one at a time, each in a task of its own: twenty seasons loaded
   * together would otherwise build in one run of promise callbacks and hold every request until all were built.
   */
  private warm(season: string) {
    this.cold.add(season)
    if (this.warming) return
    this.warming = true
    void (async () => {
      for (const next of this.cold) {
        this.cold.delete(next)
        await new Promise((resolve) => setImmediate(resolve))
        await warmAutocomplete(this.db, next, this.versionOf(next))
      }
      this.warming = false
    })()
  }

  versionOf(season: string): number {
    return this.seasonVersions.get(season) ?? 0
  }

  private changed(season: string, announce: boolean) {
    this.version = ++versions
    this.seasonVersions.set(season, this.version)
    // The season's autocomplete index is built now rather than by the first bot that asks.
    this.warm(season)
    if (!announce) return
    // Files dropped in together are indexed once all are loaded, not once each (each build is a worker of its
    // own); a search asked meanwhile builds at once.
    this.settleSearch()
    this.onChange()
  }
}
