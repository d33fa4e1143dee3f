// GET /api/admin/catalog: each season file's last check, with its problems, for admins.
import { CatalogFiles, catalogFiles } from '#server/catalog/files.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('settings:write', 'Check the catalog files', {
  operationId: 'getCatalogStatus',
  description: "Each season file's last check: loaded or refused, with its errors and warnings.",
  responses: ok(CatalogFiles, 'Every season file'),
  handler: ({ db }) => catalogFiles(db),
})
