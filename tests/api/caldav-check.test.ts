// `bun server/cli.ts caldav-check` against a real Radicale: exit 0 when the collection works, else exactly one plain line and exit 1.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fetchCalendarObjects } from 'tsdav'
import { type Radicale, startRadicale } from '../radicale.ts'

const root = path.join(import.meta.dir, '..', '..')
const dir = mkdtempSync(path.join(tmpdir(), 'caldav-check-'))
let dav: Radicale
let readOnly: Radicale
beforeAll(async () => {
  ;[dav, readOnly] = await Promise.all([startRadicale(), startRadicale({ readOnly: true })])
})
afterAll(async () => {
  await Promise.all([dav.stop(), readOnly.stop()])
  rmSync(dir, { recursive: true, force: true })
})

/** Runs the real CLI with only these CALDAV_* variables (none inherited from the shell running the tests). */
async function check(caldav: Record<string, string>) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CALDAV_')))
  const proc = Bun.spawn([process.execPath, 'server/cli.ts', 'caldav-check'], {
    cwd: root,
    env: { ...inherited, NODE_ENV: 'production', DATABASE_PATH: path.join(dir, 'site.db'), ...caldav },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, out: stdout + stderr }
}

/** Exit 1 and exactly one non-empty line; answers that line. */
function oneLineFailure(run: { code: number; out: string }): string {
  expect(run.code).toBe(1)
  const lines = run.out.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1)
  expect(lines).toHaveLength(1)
  expect(lines[0].trim()).not.toBe('')
  return lines[0]
}

const closedPort = () => {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = server.port
  server.stop(true)
  return port
}

describe('bun server/cli.ts caldav-check', () => {
  it('exits 0 with the OK line for a working collection, and leaves no test event behind', async () => {
    const run = await check(dav.env)
    expect(run.code).toBe(0)
    expect(run.out.trim()).toBe(`Calendar OK: ${dav.url} (Units) accepts events`)
    const left = await fetchCalendarObjects({ calendar: { url: dav.url } as never, headers: dav.auth })
    expect(left).toEqual([])
  })

  it('names the user name or password, never the password itself, when the server refuses them', async () => {
    const wrong = 'not-the-calendar-secret'
    const line = oneLineFailure(await check({ ...dav.env, CALDAV_PASSWORD: wrong }))
    expect(line).toMatch(/user name or password/)
    expect(line).toContain('CALDAV_PASSWORD')
    expect(line).not.toContain(wrong)
    expect(line).not.toContain(dav.password)
  })

  it('says the host cannot be reached when nothing listens on the port', async () => {
    const port = closedPort()
    const line = oneLineFailure(await check({ ...dav.env, CALDAV_URL: `http://127.0.0.1:${port}/site/units/` }))
    expect(line).toStartWith(`Cannot reach 127.0.0.1:${port}: `)
  })

  it('says CALDAV_URL was not found for a URL that does not exist (404)', async () => {
    const line = oneLineFailure(await check({ ...dav.env, CALDAV_URL: `${dav.base}/${dav.username}/missing/` }))
    expect(line).toBe(`CALDAV_URL was not found on the calendar server (HTTP 404): ${dav.base}/${dav.username}/missing/`)
  })

  it('says the URL is a folder, not a calendar, and suggests the calendar inside it', async () => {
    const line = oneLineFailure(await check({ ...dav.env, CALDAV_URL: `${dav.base}/${dav.username}/` }))
    expect(line).toBe(`CALDAV_URL points at a folder, not a calendar; use the calendar's own URL, e.g. ${dav.url}`)
  })

  it('says the server refused the test event when the user may only read the calendar', async () => {
    const line = oneLineFailure(await check(readOnly.env))
    expect(line).toBe('The calendar server refused to save a test event (HTTP 403); CALDAV_USERNAME needs write access to this calendar')
    const left = await fetchCalendarObjects({ calendar: { url: readOnly.url } as never, headers: readOnly.auth })
    expect(left).toEqual([])
  })

  it('names CALDAV_URL when the calendar is not configured', async () => {
    const line = oneLineFailure(await check({}))
    expect(line).toBe('The calendar is not configured: set CALDAV_URL, CALDAV_USERNAME and CALDAV_PASSWORD')
    const partly = oneLineFailure(await check({ CALDAV_USERNAME: 'site', CALDAV_PASSWORD: 'secret-ish' }))
    expect(partly).toContain('set CALDAV_URL (')
  })
})
