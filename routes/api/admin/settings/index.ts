// GET /api/admin/settings: every setting with its type, value, default and description.
import { defineRoute } from '#server/routes.ts'
import { listSettings, SettingList } from '#server/settings/registry.ts'

export const GET = defineRoute({
  auth: 'settings:write',
  summary: 'Every setting with key, type, value, default and description',
  responses: { 200: { description: 'The settings registry with the values in force', schema: SettingList } },
  handler: async ({ db }) => ({ settings: await listSettings(db) }),
})
