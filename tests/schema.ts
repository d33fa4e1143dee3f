// The schema of a database file as a comparable value: tables and indexes with columns, keys and indexes.
import { Database } from 'bun:sqlite'

/** Every table and index with its columns, foreign keys and indexes, the SQL compared without layout. */
export function schemaOf(file: string) {
  const db = new Database(file, { readonly: true })
  const rows = db.query("select type, name, tbl_name, sql from sqlite_master where name not like 'kysely_%' order by name").all() as any[]
  const schema = rows.map((r) => ({
    ...r,
    sql: r.sql && r.sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').toLowerCase(),
    ...(r.type === 'table'
      ? {
          columns: db.query(`pragma table_info("${r.name}")`).all(),
          foreign_keys: db.query(`pragma foreign_key_list("${r.name}")`).all(),
          indexes: db.query(`pragma index_list("${r.name}")`).all(),
        }
      : {}),
  }))
  db.close()
  return schema
}
