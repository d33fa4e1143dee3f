// GET /api/admin/settings: every setting with its type, value, default and description.
import { defineRoute } from '../../../../server/routes.ts'
import { listSettings } from '../../../../server/settings/registry.ts'

export const GET = defineRoute({
  auth: 'settings:write',
  summary: 'Every setting with key, type, value, default and description',
  handler: async ({ db }) => ({ settings: await listSettings(db) }),
})
