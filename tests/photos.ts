// Event albums in tests: an event to hold photos, families signed up for it, and photo uploads over real multipart
// requests, each answer checked against the API contract like every `s.req`.
import { expect } from 'bun:test'
import sharp from 'sharp'
import { contract } from './contract.ts'
import { addDays, today } from './dates.ts'
import { familyAccount } from './households.ts'
import type { TestServer } from './helpers.ts'

export const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`

/** A small photo (JPEG unless asked), made on the spot. */
export const smallPhoto = (format: 'jpeg' | 'png' = 'jpeg', background = '#36a') =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background } })
    [format]()
    .toBuffer()

/** An event asking for replies in three weeks, made by `leader`: the album's event. */
export async function albumEvent(
  s: TestServer,
  leader: { cookie: string },
  unit: 'pack' | 'troop' | 'both' = 'pack',
  title = 'Fall campout',
) {
  const res = await s.req('POST', '/api/admin/calendar', {
    cookie: leader.cookie,
    json: { title, date: addDays(today(), 21), unit, rsvp: true },
  })
  expect(res.status).toBe(201)
  return res.body.uid as string
}

/** A family of `unit` with one scout (consent as given), signed up for the event with a confirmed yes when `uid` is given. */
export async function photoFamily(s: TestServer, unit: 'pack' | 'troop', consent: boolean, uid?: string) {
  const f = await familyAccount(s, { unit, email: null, scouts: 1 })
  if (consent) await s.db.updateTable('scouts').set({ photo_consent: 1 }).where('id', '=', f.scouts[0]).execute()
  if (uid) {
    const reply = await s.req('PUT', `${eventPath(uid)}/rsvps`, { cookie: f.cookie, json: { answer: 'yes', adults: 1, scouts: 1 } })
    expect(reply.status).toBe(200)
  }
  return { ...f, scout: f.scouts[0] }
}

/** POST /api/admin/calendar/{uid}/photos as multipart, with the answer checked against the contract. */
export async function upload(
  s: TestServer,
  cookie: string,
  uid: string,
  bytes?: Uint8Array,
  name = 'photo.jpg',
  type = 'image/jpeg',
  headers: Record<string, string> = {},
) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes ?? (await smallPhoto()))], { type }), name)
  const path = `${eventPath(uid)}/photos`
  const res = await fetch(s.url + path, { method: 'POST', body: form, headers: { cookie, ...headers } })
  const text = await res.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {}
  const broken = (await contract()).check('POST', new URL(path, s.url).pathname, res.status, res.headers.get('content-type'), body)
  if (broken) throw new Error(`Contract broken: ${broken}`)
  return { status: res.status, body }
}

/** A photo added by a leader, tagged with `scouts`, reviewed, and public when asked. */
export async function readyPhoto(
  s: TestServer,
  leader: { cookie: string },
  uid: string,
  scouts: number[],
  state: { reviewed?: boolean; public?: boolean } = {},
) {
  const up = await upload(s, leader.cookie, uid)
  expect(up.status).toBe(201)
  const id = up.body.id as number
  if (scouts.length)
    expect((await s.req('PUT', `/api/admin/photos/${id}/scouts`, { cookie: leader.cookie, json: { scout_ids: scouts } })).status).toBe(200)
  if (state.reviewed || state.public) {
    const res = await s.req('PATCH', `/api/admin/photos/${id}`, { cookie: leader.cookie, json: state })
    expect(res.status).toBe(200)
  }
  return up.body as { id: number; url: string; sizes: { url: string }[] }
}
