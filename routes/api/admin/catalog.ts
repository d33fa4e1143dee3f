// GET /api/admin/catalog: each season file's last check, with its problems, for admins.
import { CatalogFiles, catalogFiles } from '#server/catalog/files.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'settings:write',
  summary: "Each catalog file's last check: loaded or refused, with errors and warnings",
  responses: { 200: { description: 'Every season file', schema: CatalogFiles } },
  handler: ({ db }) => catalogFiles(db),
})
