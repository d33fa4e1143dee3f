// The one place a full disk's error is told from others: SQLite's and the file system's "no room" codes always,
// SQLITE_IOERR's variants only when the database's disk is in fact full (a 1 MiB tmpfs, filled).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DISK_FULL, diskFullAt, freeBytes, isDiskFull } from '../../server/ops/disk.ts'

const roomy = mkdtempSync(path.join(tmpdir(), 'disk-roomy-'))
const small = mkdtempSync(path.join(tmpdir(), 'disk-small-'))

beforeAll(() => {
  Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', small])
  try {
    writeFileSync(path.join(small, 'filler'), new Uint8Array(2 * 1024 * 1024))
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error
  }
})
afterAll(() => {
  Bun.spawnSync(['umount', small])
  rmSync(small, { recursive: true, force: true })
  rmSync(roomy, { recursive: true, force: true })
})

describe('isDiskFull', () => {
  it('knows the no-room codes, and nothing else, wherever the disk is', () => {
    for (const code of ['SQLITE_FULL', 'ENOSPC', 'EDQUOT']) expect(isDiskFull(Object.assign(new Error('x'), { code }))).toBe(true)
    for (const error of [new Error('x'), { code: 'SQLITE_BUSY' }, { code: 'SQLITE_CONSTRAINT_UNIQUE' }, null, 'SQLITE_FULL'])
      expect(isDiskFull(error)).toBe(false)
  })

  it('counts an SQLITE_IOERR only when the database disk is full', () => {
    const ioerr = { code: 'SQLITE_IOERR_WRITE' }
    expect(isDiskFull(ioerr)).toBe(false)
    expect(isDiskFull(ioerr, path.join(roomy, 'site.db'))).toBe(false)
    expect(isDiskFull(ioerr, path.join(small, 'site.db'))).toBe(true)
  })
})

describe('diskFullAt and freeBytes', () => {
  it('says the sentence on a full disk and nothing on a roomy one, leaving no probe behind', () => {
    expect(diskFullAt(path.join(small, 'site.db'))).toBe(DISK_FULL)
    expect(diskFullAt(path.join(roomy, 'site.db'))).toBeNull()
    expect(Bun.spawnSync(['ls', '-A', small]).stdout.toString().trim()).toBe('filler')
  })

  it('measures the nearest folder that exists', () => {
    expect(freeBytes(path.join(small, 'not', 'yet'))).toBeLessThan(64 * 1024)
    expect(freeBytes(path.join(roomy, 'backups'))).toBeGreaterThan(1024 * 1024)
  })
})
