// bun server/cli.ts roster-import FILE [--unit] [--apply]: a preview in lines that writes nothing, then the apply in
// one transaction with one action-log entry; the same file twice creates nothing; refusals exit 1 with one line.
import { afterAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const dir = mkdtempSync(path.join(tmpdir(), 'site-cli-import-'))
const dbPath = path.join(dir, 'site.db')
const root = path.join(import.meta.dir, '..')
const fixtures = path.join(import.meta.dir, 'fixtures', 'roster')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function cli(args: string[]) {
  const proc = Bun.spawnSync([process.execPath, 'server/cli.ts', ...args], { cwd: root, env: { ...process.env, DATABASE_PATH: dbPath } })
  return { code: proc.exitCode, out: proc.stdout.toString() + proc.stderr.toString() }
}
const count = (sql: string) => {
  const db = new Database(dbPath, { readonly: true })
  try {
    return (db.query(sql).get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe('roster-import', () => {
  it('previews the BSA export without writing, then --apply imports it once; again it creates nothing', () => {
    const file = path.join(fixtures, 'bsa-member-roster.csv')
    const look = cli(['roster-import', file])
    expect(look.code).toBe(0)
    expect(look.out).toContain('Households: 60 new, 0 to update, 0 unchanged')
    expect(look.out).toContain('Scouts: 75 new')
    expect(look.out).toContain('Nothing was written')
    expect(count('select count(*) as n from households')).toBe(0)
    const done = cli(['roster-import', file, '--apply'])
    expect(done.code).toBe(0)
    expect(done.out).toContain('Applied: 60 households and 75 scouts added')
    expect(count('select count(*) as n from scouts')).toBe(75)
    expect(count("select count(*) as n from action_log where kind = 'roster.import' and actor = 'cli'")).toBe(1)
    const again = cli(['roster-import', file, '--apply'])
    expect(again.out).toContain('Applied: 0 households and 0 scouts added, 0 households and 0 scouts updated')
    expect(count('select count(*) as n from households')).toBe(60)
  })

  it('--unit places rows that name none; bad rows are listed by line', () => {
    const file = path.join(dir, 'small.csv')
    writeFileSync(
      file,
      'First Name,Last Name,Patrol,Parent Name,Parent Email\nLee,Stone,Owl Patrol,Kim Stone,kim@example.org\nMo,Stone,,,\n',
    )
    const run = cli(['roster-import', file, '--unit', 'troop', '--apply'])
    expect(run.code).toBe(0)
    expect(run.out).toContain('Line 3: not imported, no parent name')
    expect(run.out).toContain('New dens and patrols: Owl Patrol (troop)')
    expect(
      count("select count(*) as n from scouts where den = 'Owl Patrol' and unit_id = (select id from units where slug = 'troop')"),
    ).toBe(1)
  })

  it('refuses a missing file, a file that is not a roster and a bad --unit', () => {
    expect(cli(['roster-import', path.join(dir, 'nope.csv')])).toMatchObject({ code: 1, out: expect.stringContaining('There is no file') })
    const words = path.join(dir, 'words.txt')
    writeFileSync(words, 'just some words\nand more\n')
    expect(cli(['roster-import', words])).toMatchObject({ code: 1, out: expect.stringContaining('no header row') })
    expect(cli(['roster-import', words, '--unit', 'cave']).code).toBe(2)
    expect(cli(['roster-import']).code).toBe(2)
    expect(cli(['roster-import', words, '--colour', 'red']).code).toBe(2)
  })
})
