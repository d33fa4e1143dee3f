// The action log's table type (composed into Database by db/database.ts); db/write.ts writes it, history/ reads it.
import type { Generated } from 'kysely'

export interface ActionLogTable {
  id: Generated<number>
  at: string
  kind: string
  actor: string
  summary: string
}
