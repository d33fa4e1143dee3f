// After migrating, the database's schema must be the one a fresh database gets from the same migrations: a past
// database the migrations do not fully bring up to date would otherwise start and answer 500 where a column is missing.
import { type Kysely, sql } from 'kysely'

type Shape = Map<string, string>

/**
 * Every table's columns (name, type, not null, default, key), foreign keys and indexes, and every index's and
 * trigger's SQL without layout, keyed by what they describe: column order and table SQL layout do not matter to
 * queries, and a table rebuilt by a repair keeps its columns in another order.
 */
export async function schemaShape(db: Kysely<any>): Promise<Shape> {
  const shape: Shape = new Map()
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where name not like 'kysely_%' and name not like 'sqlite_%'`.execute(db)
  for (const r of rows) {
    if (r.type !== 'table') {
      if (r.sql) shape.set(`${r.type} ${r.name}`, r.sql.replace(/\s+/g, '').toLowerCase())
      continue
    }
    shape.set(`table ${r.name}`, 'present')
    const columns = await sql<Record<string, unknown>>`select * from pragma_table_info(${r.name})`.execute(db)
    for (const c of columns.rows) {
      shape.set(`column ${r.name}.${c.name}`, `${c.type} notnull=${c.notnull} default=${c.dflt_value} pk=${c.pk}`)
    }
    const keys = await sql<Record<string, unknown>>`select * from pragma_foreign_key_list(${r.name})`.execute(db)
    for (const k of keys.rows) {
      shape.set(`foreign key ${r.name}.${k.from}`, `${k.table}.${k.to} on update ${k.on_update} on delete ${k.on_delete}`)
    }
    const indexes = await sql<{ name: string; unique: number }>`select * from pragma_index_list(${r.name})`.execute(db)
    for (const i of indexes.rows.filter((i) => i.name.startsWith('sqlite_autoindex_'))) {
      const on = await sql<{ name: string }>`select name from pragma_index_info(${i.name}) order by seqno`.execute(db)
      shape.set(`unique key ${r.name}(${on.rows.map((c) => c.name).join(', ')})`, 'present')
    }
  }
  return shape
}

/** What differs between two shapes, one clause each (none when they agree). */
export function shapeDifferences(actual: Shape, expected: Shape): string[] {
  const differences: string[] = []
  for (const [what, value] of expected) {
    const got = actual.get(what)
    if (got === undefined) differences.push(`${what} is missing`)
    else if (got !== value) differences.push(`${what} is ${got} where a fresh database has ${value}`)
  }
  for (const what of actual.keys()) if (!expected.has(what)) differences.push(`${what} is there and a fresh database has none`)
  return differences
}
