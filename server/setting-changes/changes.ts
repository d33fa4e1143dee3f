// Changing a setting, and what a change sets off: work in its transaction (`applies`: who a second-factor policy
// now covers) and after the commit (`after`: a rebuild, the site's refresh timer, a schedule). Declared here, above
// the features whose work it is, so the registry in settings/ stays read-only and imports no feature.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { forbidden, unprocessable } from '../errors.ts'
import type { Services } from '../services.ts'
import {
  forgetSettings,
  getSetting,
  isSettingKey,
  needsSession,
  type SettingDef,
  type SettingKey,
  settingError,
  SETTINGS,
} from '../settings/registry.ts'
import { syncAsked } from '../auth/second-factor-policy.ts'
import { assertPublicImage } from '../files/site-images.ts'

/**
 * What a committed change sets off outside its transaction: the public pages show the value ('public pages'), the
 * site's refresh timer follows it, or a schedule that listens with `onSettingChange` looks again.
 */
export type AfterChange = 'public pages' | 'site refresh' | 'backup schedule' | 'digest schedule'

interface SettingChange {
  /** Work the change brings with it, in the same transaction (who a policy now covers). */
  applies?: (trx: Executor) => Promise<void>
  /** What the change sets off once it is committed. */
  after?: readonly AfterChange[]
}

export const SETTING_CHANGES: Partial<Record<SettingKey, SettingChange>> = {
  'site.name': { after: ['public pages'] },
  'site.description': { after: ['public pages'] },
  'announcements.live_cap': { after: ['public pages'] },
  'site.logo': { applies: (trx) => assertPublicImage(trx, 'site.logo'), after: ['public pages'] },
  'site.share_image': { applies: (trx) => assertPublicImage(trx, 'site.share_image'), after: ['public pages'] },
  'site.timezone': { after: ['public pages', 'backup schedule', 'digest schedule'] },
  'security.second_factor': { applies: (trx) => syncAsked(trx) },
  'site.rebuild_minutes': { after: ['site refresh'] },
  'backups.hour': { after: ['backup schedule'] },
  'mail.digest_day': { after: ['digest schedule'] },
  'mail.digest_hour': { after: ['digest schedule'] },
}

type Schedule = Extract<AfterChange, `${string} schedule`>
const listeners = new Set<{ schedule: Schedule; listener: (db: Db) => void }>()

/**
 * Calls `listener` after each committed change of a setting that names `schedule` in its `after` (so a schedule can
 * follow its hour); returns the unsubscribe.
 */
export function onSettingChange(schedule: Schedule, listener: (db: Db) => void): () => void {
  const entry = { schedule, listener }
  listeners.add(entry)
  return () => void listeners.delete(entry)
}

/** The services a change's after-commit effects reach. */
type SettingServices = Pick<Services, 'db' | 'outbound' | 'publicDataChanged' | 'site'>

/** The work each effect names, in the order a setting lists them. */
function workOf(effect: AfterChange, services: SettingServices): (() => unknown)[] {
  if (effect === 'public pages') return [() => services.publicDataChanged()]
  if (effect === 'site refresh') return [async () => services.site?.startPeriodic(await getSetting(services.db, 'site.rebuild_minutes'))]
  return [...listeners].filter((l) => l.schedule === effect).map((l) => () => l.listener(services.db))
}

/** A value as the history shows it: a choice in its words, no address as "none", text in quotes. */
function valueWords(def: SettingDef, value: unknown): string {
  if (value === null) return 'none'
  if (def.choices && typeof value === 'string') return def.choices[value] ?? value
  return typeof value === 'string' ? `“${value}”` : String(value)
}

/**
 * Changes a setting (null restores its default): 422 for an unknown key or a value it refuses (an address the
 * service would call on this machine or a private network among them), 403 for a key or the break-glass token
 * widening where credentials work.
 */
export async function changeSetting(services: SettingServices, caller: Caller, key: string, value: unknown): Promise<void> {
  const { db, outbound } = services
  if (!isSettingKey(key)) throw unprocessable(`Unknown setting key: ${key}`)
  const def: SettingDef = SETTINGS[key]
  const change = SETTING_CHANGES[key] ?? {}
  const problem = value === null ? null : (settingError(key, value) ?? (def.calledByService ? outbound.problemWith(value as string) : null))
  if (problem) throw unprocessable(`value: ${problem}`)
  const next = value ?? def.default
  const before = await getSetting(db, key)
  if (needsSession(key, next, before) && caller.via !== 'session')
    throw forbidden(`Setting ${key} to ${JSON.stringify(next)} widens where credentials work or loosens a protection: sign in to do it`)
  await write(db, async (trx) => {
    if (value === null) await trx.deleteFrom('settings').where('key', '=', key).execute()
    else
      await trx
        .insertInto('settings')
        .values({ key, value: JSON.stringify(value), updated_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: new Date().toISOString() }))
        .execute()
    await change.applies?.(trx)
    const was = valueWords(def, before)
    const now = valueWords(def, next)
    await record(trx, caller.actor, 'settings.update', `${def.label}: ${value === null ? `back to the default, ${now}` : now} (was ${was})`)
  })
  forgetSettings(db)
  // The change is committed: an effect's failure must not turn it into an error answer.
  for (const work of (change.after ?? []).flatMap((effect) => workOf(effect, services)))
    try {
      await work()
    } catch (error) {
      console.error(`After changing ${key}: ${error instanceof Error ? error.message : error}`)
    }
}
