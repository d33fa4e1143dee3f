// Opens the SQLite file through Kysely with the pragmas the service relies on, and runs its migrations (the copy
// taken before them is backups/migrate.ts's step, above this layer).
import { type SQLQueryBindings, Database as SqliteDatabase, type Statement } from 'bun:sqlite'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { promises as fs } from 'node:fs'
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  FileMigrationProvider,
  Kysely,
  Migrator,
  type QueryResult,
  SqliteAdapter,
} from 'kysely'
import { BunSqliteDialect } from 'kysely-bun-sqlite'
import type { Database } from './database.ts'
import { repairRenamedMigrations } from './renamed-migrations.ts'
import { schemaShape, shapeDifferences } from './schema-check.ts'

export type Db = Kysely<Database>

export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const sqlite = new SqliteDatabase(file, { create: true, strict: true })
  // The wait comes first: another process may hold the file for a moment as this one opens it (a site build of a
  // service just killed, closing its connection), and the WAL switch would fail at once without it.
  sqlite.exec('PRAGMA busy_timeout = 5000')
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA synchronous = NORMAL')
  return new Kysely<Database>({ dialect: new ImmediateTransactions({ database: sqlite }) })
}

/** How many prepared statements a connection keeps: the service runs about this many distinct queries. */
const STATEMENTS_KEPT = 500

/**
 * Transactions begin IMMEDIATE: they take the write lock up front, waiting out another writer (the
 * CLI, a second process) under busy_timeout. A deferred transaction that reads first and writes later
 * gets SQLITE_BUSY at once, with no wait, when another connection wrote meanwhile.
 */
class ImmediateTransactions extends BunSqliteDialect {
  constructor(private readonly config: { database: SqliteDatabase }) {
    super(config)
  }

  // SQLite changes its schema inside a transaction (Kysely assumes it cannot): the pending migrations apply all
  // together or, when one fails, not at all, so a failed start leaves the database as it was.
  createAdapter(): DialectAdapter {
    return new TransactionalDdl()
  }

  createDriver(): Driver {
    const driver = super.createDriver()
    const acquire = driver.acquireConnection.bind(driver)
    let kept: KeptStatements | null = null
    const destroy = driver.destroy.bind(driver)
    // Acquiring takes the driver's lock (one query or transaction at a time), so it runs every time.
    driver.acquireConnection = async () => {
      const connection = await acquire()
      return (kept ??= new KeptStatements(this.config.database, connection))
    }
    // Finalized first: SQLite keeps the file open while any statement of it lives.
    driver.destroy = async () => {
      kept?.forgetAll()
      await destroy()
    }
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'))
    }
    // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL among them); rolling back again would
    // throw "no transaction is active" in place of the error that says what happened.
    const rollback = driver.rollbackTransaction.bind(driver)
    driver.rollbackTransaction = async (connection) => {
      if (this.config.database.inTransaction) await rollback(connection)
    }
    return driver
  }
}

class TransactionalDdl extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

/**
 * The driver's connection with its statements kept by SQL text: the driver prepares every query afresh, which
 * costs more than running a short one. Kysely sends parameters apart from the text, so the texts are few.
 */
class KeptStatements implements DatabaseConnection {
  #statements = new Map<string, { statement: Statement; returnsRows: boolean }>()

  constructor(
    private readonly sqlite: SqliteDatabase,
    _driverConnection: DatabaseConnection,
  ) {}

  executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    let kept = this.#statements.get(sql)
    if (!kept) {
      const statement = this.sqlite.prepare(sql)
      kept = { statement, returnsRows: statement.columnNames.length > 0 }
      if (this.#statements.size >= STATEMENTS_KEPT) this.#forgetOldest()
      this.#statements.set(sql, kept)
    }
    // Kysely passes on the values a query was built with: the strings, numbers, nulls and bytes SQLite binds.
    const values = parameters as SQLQueryBindings[]
    if (kept.returnsRows) return Promise.resolve({ rows: kept.statement.all(...values) as R[] })
    const { changes, lastInsertRowid } = kept.statement.run(...values)
    return Promise.resolve({ insertId: BigInt(lastInsertRowid), numAffectedRows: BigInt(changes), rows: [] })
  }

  /**
   * The rows of one statement (one snapshot) a chunk at a time. Not the driver's: it looks for an `iterator` that
   * bun:sqlite's statements do not have (they have `iterate`), and so refuses to stream at all.
   */
  async *streamQuery<R>({ sql, parameters }: CompiledQuery, chunkSize = 1): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.sqlite.prepare(sql)
    try {
      let rows: R[] = []
      for (const row of statement.iterate(...(parameters as SQLQueryBindings[]))) {
        rows.push(row as R)
        if (rows.length < chunkSize) continue
        yield { rows }
        rows = []
      }
      if (rows.length) yield { rows }
    } finally {
      statement.finalize()
    }
  }

  forgetAll() {
    for (const { statement } of this.#statements.values()) statement.finalize()
    this.#statements.clear()
  }

  #forgetOldest() {
    const [sql, { statement }] = this.#statements.entries().next().value!
    this.#statements.delete(sql)
    statement.finalize()
  }
}

/** The migrations, with those already run marked (`executedAt`). */
export const migrationsOf = (db: Db) => migratorOf(db).getMigrations()

/**
 * Throws, naming what differs, when the schema is not the one a fresh database gets: the service must not start
 * on it.
 */
export async function assertFreshSchema(db: Db): Promise<void> {
  const differences = shapeDifferences(await schemaShape(db), await freshShape())
  if (differences.length > 0) {
    throw new Error(
      `After migrating, the database's schema differs from the one its migrations make on a fresh database: ${differences.join('; ')}. ` +
        'Nothing starts on it; restore the copy taken before migrating or repair it with a new migration.',
    )
  }
}

function migratorOf(db: Db): Migrator {
  return new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: path.join(import.meta.dir, 'migrations') }),
    // A branch's migration merged after a later one already ran (0021 after 0022 in 25d7f66) still runs.
    allowUnorderedMigrations: true,
  })
}

/**
 * Runs every pending migration; throws with the failing migration's error. `before` is the copy taken before
 * (backups/migrate.ts), removed when the failure changed nothing.
 */
export async function runMigrations(db: Db, before: { dir: string; name: string } | null): Promise<string[]> {
  let repaired = false
  try {
    repaired = await repairRenamedMigrations(db)
    const { error, results } = await migratorOf(db).migrateToLatest()
    if (error) throw error
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
  } catch (error) {
    if (before && !repaired) {
      // Nothing changed (the migrations were one transaction): the copy is the database itself, and a start that
      // fails again and again would otherwise leave one more full copy each time.
      rmSync(path.join(before.dir, before.name), { force: true })
      console.error('The migration failed and changed nothing; the database is as it was before.')
    } else if (before) {
      console.error(`The migration failed; the database as it was before is also in ${path.join(before.dir, before.name)}`)
    }
    throw error
  }
}

/** The shape every migration gives an empty database, made once per process (in memory, tens of milliseconds). */
let fresh: Promise<Map<string, string>> | undefined
function freshShape(): Promise<Map<string, string>> {
  fresh ??= (async () => {
    const db = openDatabase(':memory:')
    try {
      await runMigrations(db, null)
      return await schemaShape(db)
    } finally {
      await db.destroy()
    }
  })()
  return fresh
}
