// A real CalDAV server for tests: Debian's Radicale on a free loopback port with a temporary store and one user.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createCalendarObject, makeCalendar } from 'tsdav'
import { freePort } from './helpers.ts'

export interface Radicale {
  base: string
  /** The calendar collection the service is pointed at. */
  url: string
  username: string
  password: string
  dir: string
  auth: Record<string, string>
  /** Env vars that point the service at this collection. */
  env: Record<string, string>
  /** Stores one VEVENT (its properties, one per line) as another calendar app would; answers the HTTP status. */
  putForeign(filename: string, vevent: string[]): Promise<number>
  stop(): Promise<void>
}

/** Radicale's rights file: the user's own home and calendars, read and write (as owner_only) or read only. */
const rights = (write: boolean) =>
  [
    ['root', '', 'R'],
    ['home', '{user}', write ? 'RW' : 'R'],
    ['calendars', '{user}/[^/]+', write ? 'rw' : 'r'],
  ]
    .map(([name, collection, permissions]) => `[${name}]\nuser: .+\ncollection: ${collection}\npermissions: ${permissions}\n`)
    .join('\n')

/** `readOnly`: the user may read but not write the collection once it has been created (for refused writes). */
export async function startRadicale(options: { readOnly?: boolean } = {}): Promise<Radicale> {
  const dir = mkdtempSync(path.join(tmpdir(), 'radicale-'))
  const username = 'site'
  const password = 'calendar-secret'
  writeFileSync(path.join(dir, 'users'), `${username}:${password}\n`)
  const rightsFile = path.join(dir, 'rights')
  if (options.readOnly) writeFileSync(rightsFile, rights(true))
  const rightsArgs = options.readOnly ? ['--rights-type', 'from_file', '--rights-file', rightsFile] : ['--rights-type', 'owner_only']
  const port = await freePort()
  // prettier-ignore
  const proc = Bun.spawn(['radicale', '--config', '', '--server-hosts', `127.0.0.1:${port}`, '--storage-filesystem-folder', path.join(dir, 'store'),
    '--auth-type', 'htpasswd', '--auth-htpasswd-filename', path.join(dir, 'users'), '--auth-htpasswd-encryption', 'plain', ...rightsArgs], { stdout: 'ignore', stderr: 'ignore' })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      await fetch(base)
      break
    } catch {
      if (i > 100) throw new Error('Radicale did not start')
      await Bun.sleep(50)
    }
  }
  const auth = { authorization: 'Basic ' + btoa(`${username}:${password}`) }
  const url = `${base}/${username}/units/`
  const made = await makeCalendar({ url, props: { displayname: 'Units' }, headers: auth } as never)
  if (!made.every((r: { ok: boolean }) => r.ok)) throw new Error('could not create the calendar collection')
  // Radicale reads the rights file on every request, so from here on the user may only read.
  if (options.readOnly) writeFileSync(rightsFile, rights(false))
  return {
    base,
    url,
    username,
    password,
    dir,
    auth,
    env: { CALDAV_URL: url, CALDAV_USERNAME: username, CALDAV_PASSWORD: password },
    async putForeign(filename, vevent) {
      const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Other client//EN', 'BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...vevent]
      const res = await createCalendarObject({
        calendar: { url } as never,
        filename,
        iCalString: [...ics, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'),
        headers: auth,
      })
      return res.status
    },
    async stop() {
      proc.kill()
      await proc.exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
