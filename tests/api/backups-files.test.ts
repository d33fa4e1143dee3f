// Backups carry the files (issue 50, item 5): the daily backup and `backup PATH` write a `.files` folder beside the
// database copy, checked against the copy's rows; `restore` puts both back (and refuses a damaged folder); rotation
// removes a backup's folder with it; /healthz reports the files' disk use against files.total_gb.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { backupName, prune } from '../../server/backups/files.ts'
import { runBackup } from '../../server/backups/run.ts'
import { readEnv } from '../../server/env.ts'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { phonePhoto } from '../images.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'backup-files-'))
const databasePath = path.join(dir, 'site.db')
const filesDir = readEnv({ DATABASE_PATH: databasePath }).filesDir
const root = path.join(import.meta.dir, '..', '..')
let s: TestServer
let leader: { cookie: string }
beforeAll(async () => {
  s = await startServer({ DATABASE_PATH: databasePath })
  leader = await s.as(ROLES.packLeader)
})
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

function cli(args: string[]) {
  const proc = Bun.spawnSync([process.execPath, 'server/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: databasePath },
  })
  return { code: proc.exitCode, out: proc.stdout.toString() + proc.stderr.toString() }
}

async function upload(bytes: Uint8Array, name: string) {
  const body = new FormData()
  body.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  body.set('unit', 'pack')
  body.set('visibility', 'public')
  const res = await s.req('POST', '/api/admin/files', { cookie: leader.cookie, body })
  expect(res.status).toBe(201)
  return res.body as { id: string; url: string; sizes: { url: string }[] }
}

const PDF = new TextEncoder().encode('%PDF-1.4\n% packing list\n%%EOF\n')
const bytesAt = async (url: string) => new Uint8Array(await (await fetch(s.url + url)).arrayBuffer())

describe('backups with files', () => {
  let slip: { id: string; url: string }
  let photo: { id: string; url: string; sizes: { url: string }[] }
  let photoBytes: Uint8Array<ArrayBuffer>
  const manual = path.join(dir, 'manual', 'before-cleanup.db')

  it('the daily backup writes a checked .files folder beside the database copy', async () => {
    slip = await upload(PDF, 'slip.pdf')
    photo = await upload(await phonePhoto(), 'campfire.jpg')
    photoBytes = await bytesAt(photo.url)
    const place = { databasePath, dir: path.join(dir, 'backups'), filesDir }
    const at = Date.parse('2026-11-20T09:00:00Z')
    const outcome = await runBackup(s.db, place, 'daily', at)
    expect(outcome.ok).toBe(true)
    const folder = path.join(place.dir, backupName('site', at, 'daily').replace(/\.db$/, '.files'))
    expect(readdirSync(path.join(folder, 'files')).sort()).toEqual([slip.id, photo.id].sort())
    expect(readdirSync(path.join(folder, 'files', photo.id))).toHaveLength(6)
    expect(await Bun.file(path.join(folder, 'files', slip.id, 'original')).bytes()).toEqual(PDF)
    // Rotation takes a backup's files folder with its database copy.
    const later = Date.parse('2026-11-21T09:00:00Z')
    expect((await runBackup(s.db, place, 'daily', later)).ok).toBe(true)
    prune(place.dir, 'site', 1)
    expect(existsSync(folder)).toBe(false)
    expect(readdirSync(place.dir).sort()).toEqual([
      backupName('site', later, 'daily'),
      backupName('site', later, 'daily').replace(/\.db$/, '.files'),
    ])
  })

  it('`backup PATH` copies the files too, and /healthz reports their disk use against the cap', async () => {
    const run = cli(['backup', manual])
    expect(run.code).toBe(0)
    expect(run.out).toContain('and the files to')
    expect(existsSync(path.join(dir, 'manual', 'before-cleanup.files', 'files', photo.id))).toBe(true)
    const health = await s.req('GET', '/healthz')
    expect(health.body.checks.files).toMatchObject({ ok: true, required: false, cap_bytes: 5 * 1024 ** 3 })
    expect(health.body.checks.files.used_bytes).toBeGreaterThan(PDF.byteLength)
  })

  it('`restore` puts the database and the files back; a damaged files folder is refused', async () => {
    expect((await s.req('DELETE', `/api/admin/files/${slip.id}`, { cookie: leader.cookie })).status).toBe(200)
    const later = await upload(new TextEncoder().encode('Added after the backup\n'), 'later.txt')
    // A copy of the backup whose photo no longer matches its recorded hash.
    const damaged = path.join(dir, 'damaged', 'copy.db')
    cpSync(manual, damaged)
    cpSync(manual.replace(/\.db$/, '.files'), damaged.replace(/\.db$/, '.files'), { recursive: true })
    const blob = path.join(damaged.replace(/\.db$/, '.files'), 'files', photo.id, 'w480.jpg')
    rmSync(blob)
    writeFileSync(blob, 'not the photo')
    await s.stop()
    const refused = cli(['restore', damaged])
    expect(refused.code).toBe(1)
    expect(refused.out).toContain('files folder is damaged')
    const run = cli(['restore', manual])
    expect(run.code).toBe(0)
    expect(run.out).toMatch(
      /^Restored .+ and its files from .+before-cleanup\.db; the replaced files are kept as \S+; the replaced database is kept as \S+\n$/,
    )
    s = await startServer({ DATABASE_PATH: databasePath })
    expect(await bytesAt(slip.url)).toEqual(PDF)
    expect(await bytesAt(photo.url)).toEqual(photoBytes)
    for (const size of photo.sizes) expect((await fetch(s.url + size.url)).status).toBe(200)
    expect((await fetch(s.url + later.url)).status).toBe(404)
  })
})
