// Events that already happened and attendance taken at them, for the tests of logs, the Scoutbook CSV, active status
// and the exports. Dates are counted back from today, so they hold on any day of the year.
import { expect } from 'bun:test'
import { addDays, today } from './dates.ts'
import type { TestServer } from './helpers.ts'

/** The day `days` before today (UTC): an all-day event then has started in every time zone. */
export const ago = (days: number) => addDays(today(), -days)

export const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`

/** A troop event (unless `unit` says otherwise) created through the API; answers its uid. */
export async function pastEvent(s: TestServer, cookie: string, json: Record<string, unknown>): Promise<string> {
  const res = await s.req('POST', '/api/admin/calendar', { cookie, json: { title: 'Campout', unit: 'troop', ...json } })
  expect(res.status).toBe(201)
  return res.body.uid
}

/** Ticks these scouts present (or, given as pairs, present or not) and adults by name, through the attendance API. */
export async function attend(
  s: TestServer,
  cookie: string,
  uid: string,
  scouts: (number | { scout_id: number; present: boolean })[],
  adults?: { name: string; present: boolean }[],
) {
  const res = await s.req('PUT', `${eventPath(uid)}/attendance`, {
    cookie,
    json: { scouts: scouts.map((sc) => (typeof sc === 'number' ? { scout_id: sc, present: true } : sc)), ...(adults ? { adults } : {}) },
  })
  expect(res.status).toBe(200)
  return res
}

/** Sets the month the program year starts to the month of `day`, so `day` and what follows are this program year. */
export async function yearStartsWith(s: TestServer, adminCookie: string, day: string) {
  const res = await s.req('PUT', '/api/admin/settings/roster.year_start_month', {
    cookie: adminCookie,
    json: { value: Number(day.slice(5, 7)) },
  })
  expect(res.status).toBe(200)
}
