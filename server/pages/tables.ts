// The content pages table's type (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export interface ContentPageTable {
  id: Generated<number>
  slug: string
  title: string
  /** Markdown, rendered and sanitised when the site is built. */
  body: string
  unit: 'pack' | 'troop' | 'both'
  published: number
  created_at: string
  updated_at: string
  updated_by: string
}
export type ContentPage = Selectable<ContentPageTable>
