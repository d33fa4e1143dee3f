// The social posts table's type (composed into Database by db/database.ts).
import type { Selectable } from 'kysely'

export const POST_STATUSES = ['drafted', 'scheduled', 'handed_off', 'cancelled', 'published', 'failed'] as const
export type PostStatus = (typeof POST_STATUSES)[number]

export interface SocialPostTable {
  id: string
  unit: string
  status: PostStatus
  page_id: string | null
  social_post_id: string | null
  message: string
  link: string | null
  scheduled_for: string
  queue_file: string | null
  cancel_url: string | null
  image_ref: string | null
  image: Uint8Array | null
  image_mime: string | null
  image_sha256: string | null
  reported_at: string
  updated_at: string
}
export type SocialPost = Selectable<SocialPostTable>
