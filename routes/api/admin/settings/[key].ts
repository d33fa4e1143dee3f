// GET/PUT /api/admin/settings/:key: one setting as the list shows it; set a value, or null to restore the default.
import { settingByKey } from '#server/settings/one.ts'
import { changeSetting, getSetting, SettingKeyParams, SettingValue, SettingView } from '#server/settings/registry.ts'
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
  publishes: true,
  responses: ok(SettingView, 'The setting with its new value', {
    403: 'A key or the break-glass token widening where credentials work',
    422: 'An unknown key, or a value the setting refuses (an address on this machine or a private network among them)',
  }),
  async handler({ db, caller, params, body, site, outbound }) {
    await changeSetting(db, outbound, caller, params.key, body.value)
    if (params.key === 'site.rebuild_minutes') site?.startPeriodic(await getSetting(db, 'site.rebuild_minutes'))
    return settingByKey(db, params.key)
  },
})
