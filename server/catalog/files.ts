// Each season file's last check, as admins see it: loaded or refused, with its errors and warnings.
import type { Executor } from '../db/database.ts'
import { Instant, Nullable, OneOf, t } from '../schemas.ts'

export const CatalogFiles = t.Object(
  {
    files: t.Array(
      t.Object(
        {
          file: t.String(),
          season: Nullable(t.String()),
          checked_at: Instant,
          ok: t.Boolean({ description: 'false: refused, and the last good version of the season is still served' }),
          loaded_at: Nullable(Instant),
          problems: t.Array(
            t.Object(
              { level: OneOf(['error', 'warning'] as const), pointer: t.String(), message: t.String() },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        files: [
          {
            file: 'c6s4.json',
            season: 'c6s4',
            checked_at: '2026-11-23T08:00:00.000Z',
            ok: true,
            loaded_at: '2026-11-23T08:00:00.000Z',
            problems: [{ level: 'warning', pointer: '/sprites/2/variants/0', message: 'is released but has no released_at' }],
          },
        ],
      },
    ],
  },
)

export async function catalogFiles(db: Executor) {
  const files = await db.selectFrom('catalog_files').selectAll().orderBy('file').execute()
  return { files: files.map((f) => ({ ...f, ok: f.ok === 1, problems: JSON.parse(f.problems) })) }
}
