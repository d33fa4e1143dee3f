// One setting as the settings list shows it (key, type, value in force, default, description).
import type { Executor } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { isSettingKey, listSettings } from './registry.ts'

/** The setting under `key`; 404 for a key that is not a setting. */
export async function settingByKey(db: Executor, key: string) {
  const found = isSettingKey(key) && (await listSettings(db)).find((s) => s.key === key)
  if (!found) throw notFound(`No setting ${key}`)
  return found
}
