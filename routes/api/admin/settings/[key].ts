// PUT /api/admin/settings/:key: set a value, or null to restore the default.
import { defineRoute } from '#server/routes.ts'
import { changeSetting, getSetting, SettingAnswer, SettingKeyParams, SettingValue } from '#server/settings/registry.ts'

export const PUT = defineRoute({
  auth: 'settings:write',
  summary: 'Change a setting; null restores its default',
  params: SettingKeyParams,
  body: SettingValue,
  publishes: true,
  responses: {
    200: { description: 'The setting with its new value', schema: SettingAnswer },
    403: 'Widening api_keys_from to anywhere needs a signed-in person, not a key or the break-glass token',
    422: 'An unknown key, or a value the setting refuses',
  },
  async handler({ db, caller, params, body, site }) {
    const answer = await changeSetting(db, caller, params.key, body.value)
    if (params.key === 'site.rebuild_minutes') site?.startPeriodic(await getSetting(db, 'site.rebuild_minutes'))
    return answer
  },
})
