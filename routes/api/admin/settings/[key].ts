// GET/PUT /api/admin/settings/:key: one setting as the list shows it; set a value, or null to restore the default.
import { settingByKey } from '#server/settings/one.ts'
import { changeSetting } from '#server/setting-changes/changes.ts'
import { SettingKeyParams, SettingValue, SettingView } from '#server/settings/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('settings:write', 'Get a setting', {
  operationId: 'getSetting',
  description: 'Its key, type, value in force, default and description, as the list shows it.',
  params: SettingKeyParams,
  responses: ok(SettingView, 'The setting', { 404: 'No setting has this key' }),
  handler: ({ db, params }) => settingByKey(db, params.key),
})

export const PUT = defineRoute('settings:write', 'Change a setting', {
  operationId: 'setSetting',
  description: 'null restores its default. Widening api_keys_from to anywhere needs a signed-in person.',
  params: SettingKeyParams,
  body: SettingValue,
  responses: ok(SettingView, 'The setting with its new value', {
    403: 'A key or the break-glass token widening where credentials work',
    422: 'An unknown key, or a value the setting refuses (an address on this machine or a private network among them)',
  }),
  async handler(context) {
    await changeSetting(context, context.caller, context.params.key, context.body.value)
    return settingByKey(context.db, context.params.key)
  },
})
