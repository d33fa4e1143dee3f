// /healthz's files check: the disk the uploaded files and their image sizes use, against files.total_gb.
import type { HealthCheck } from '../health/health.ts'
import { t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { GB } from './files.ts'
import { FileStore } from './store.ts'

/** Past this share of the cap the check fails, while uploads still work: time to delete or raise the cap. */
const NEARLY_FULL = 0.9

/** Walking the folder costs a read of every directory: at most once a minute, whoever asks. */
let measured: { root: string; at: number; bytes: number } | null = null

export const filesCheck: HealthCheck = {
  required: false,
  description: `Uploaded files and their image sizes use less than ${NEARLY_FULL * 100}% of files.total_gb`,
  fields: {
    used_bytes: t.Integer({ minimum: 0, description: 'Bytes the files folder holds (measured at most once a minute)' }),
    cap_bytes: t.Integer({ minimum: 0, description: 'files.total_gb in bytes: uploads past it are refused (507)' }),
  },
  example: { used_bytes: 734_003_200, cap_bytes: 5_368_709_120 },
  async run({ db, env }) {
    if (!measured || measured.root !== env.filesDir || Date.now() - measured.at > 60_000)
      measured = { root: env.filesDir, at: Date.now(), bytes: new FileStore(env.filesDir).usage() }
    const cap = (await getSetting(db, 'files.total_gb')) * GB
    const ok = measured.bytes < cap * NEARLY_FULL
    return {
      ok,
      used_bytes: measured.bytes,
      cap_bytes: cap,
      ...(ok ? {} : { error: 'Uploaded files have nearly filled files.total_gb: delete old ones or raise the setting' }),
    }
  },
}
