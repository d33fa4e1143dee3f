// PUT /api/admin/settings/:key: set a value, or null to restore the default.
import { defineRoute, ok } from '#server/routes.ts'
import { changeSetting, getSetting, SettingAnswer, SettingKeyParams, SettingValue } from '#server/settings/registry.ts'

export const PUT = defineRoute('settings:write', 'Change a setting', {
  description: 'null restores its default. Widening api_keys_from to anywhere needs a signed-in person.',
  params: SettingKeyParams,
  body: SettingValue,
  publishes: true,
  responses: ok(SettingAnswer, 'The setting with its new value', {
    403: 'A key or the break-glass token widening where credentials work',
    422: 'An unknown key, or a value the setting refuses (an address on this machine or a private network among them)',
  }),
  async handler({ db, caller, params, body, site, outbound }) {
    const answer = await changeSetting(db, outbound, caller, params.key, body.value)
    if (params.key === 'site.rebuild_minutes') site?.startPeriodic(await getSetting(db, 'site.rebuild_minutes'))
    return answer
  },
})
