// GET /api/admin/settings: every setting with its type, value, default and description.
import { defineRoute, ok } from '#server/routes.ts'
import { listSettings } from '#server/settings/registry.ts'
import { SettingList } from '#server/settings/schemas.ts'

export const GET = defineRoute('settings:write', 'List settings', {
  operationId: 'listSettings',
  description: 'Each setting with its key, type, value, default and description.',
  responses: ok(SettingList, 'The settings registry with the values in force'),
  handler: async ({ db }) => ({ settings: await listSettings(db) }),
})
