// GET /api/admin/catalog: each season file's last check, with its problems, for admins.
import { defineRoute } from '../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'settings:write',
  summary: "Each catalog file's last check: loaded or refused, with errors and warnings",
  async handler({ db }) {
    const files = await db.selectFrom('catalog_files').selectAll().orderBy('file').execute()
    return { files: files.map((f) => ({ ...f, ok: f.ok === 1, problems: JSON.parse(f.problems) })) }
  },
})
