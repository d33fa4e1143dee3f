// PUT /api/admin/settings/:key: set a value, or null to restore the default.
import { t } from '../../../../server/schemas.ts'
import { forbidden, unprocessable } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { getSetting, isSettingKey, listSettings, needsSession, putSetting, settingError } from '../../../../server/settings/registry.ts'

export const PUT = defineRoute({
  auth: 'settings:write',
  summary: 'Change a setting; null restores its default',
  params: t.Object({ key: t.String() }),
  body: t.Object({ value: t.Unknown() }, { additionalProperties: false, required: ['value'] }),
  async handler({ db, caller, params, body, site, publicDataChanged }) {
    if (!isSettingKey(params.key)) throw unprocessable(`Unknown setting key: ${params.key}`)
    const key = params.key
    if (!('value' in body)) throw unprocessable('value: required (null restores the default)')
    const problem = body.value === null ? null : settingError(key, body.value)
    if (problem) throw unprocessable(`value: ${problem}`)
    if (needsSession(key, body.value) && caller.via !== 'session')
      throw forbidden(`Setting ${key} to ${JSON.stringify(body.value)} widens where credentials work: sign in to do it`)
    await db.transaction().execute(async (trx) => {
      await putSetting(trx, db, key, body.value)
      await record(
        trx,
        caller.actor,
        'settings.update',
        body.value === null ? `Restored ${key} to its default` : `Set ${key} to ${JSON.stringify(body.value)}`,
      )
    })
    if (key === 'site.rebuild_minutes') site?.startPeriodic(await getSetting(db, key))
    publicDataChanged()
    const setting = (await listSettings(db)).find((s) => s.key === key)
    return { setting }
  },
})
