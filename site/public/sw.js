// The site's service worker (scope /): an offline page for any page that cannot load, and the trip rosters a leader
// opened, kept on this phone for the week either side of the event (docs/decisions/0155). Only the trip-roster and
// attendance answers of the admin API are ever kept; every other API answer goes to the network untouched. Signing in
// or out on this phone clears what was kept; signing out also clears the changes waiting to be sent.
importScripts('/sw-push.js')

const SHELL = 'shell-v1' // the offline page
const KEPT = 'kept-v1' // the rosters a leader kept: pages, their files, their API answers, and whose they are
const OFFLINE_PAGE = '/offline/'
const QUEUE_DB = 'offline-changes' // the page's queue of changes made offline (lib/offline-queue.ts)
const DAY = 86_400_000
const WINDOW_DAYS = 7
/** The admin API answers kept for offline use: an event's trip roster and its attendance. */
const KEPT_API = /^\/api\/admin\/calendar\/[^/]+\/(roster|attendance)$/
/** Where signing in happens: a new account on this phone must not find the last one's rosters. */
const SIGN_IN = /^\/(login|api\/login-link|api\/setup|api\/invite|api\/reset)(\/|$)/
const ACCOUNT_KEY = '/offline/account'
const EVENTS_KEY = '/offline/events'

/** The offline page with the styles and scripts it names, so that it shows as the site does. */
async function keepOfflinePage() {
  const cache = await caches.open(SHELL)
  const page = await fetch(OFFLINE_PAGE)
  if (!page.ok) return
  const html = await page.clone().text()
  const files = [...html.matchAll(/(?:href|src)="(\/_astro\/[^"]+)"/g)].map((m) => m[1])
  await cache.put(OFFLINE_PAGE, page)
  await cache.addAll(['/favicon.svg', ...new Set(files)])
}

self.addEventListener('install', (event) => {
  event.waitUntil(keepOfflinePage().then(() => self.skipWaiting()))
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== SHELL && name !== KEPT) await caches.delete(name)
      await dropPast()
      await self.clients.claim()
    })(),
  )
})

/** A JSON value kept in the KEPT cache under a made-up path. */
async function readMeta(key, fallback) {
  const hit = await (await caches.open(KEPT)).match(key)
  return hit ? hit.json() : fallback
}
const writeMeta = async (key, value) =>
  (await caches.open(KEPT)).put(key, new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } }))

/** Forgets every kept roster; with `changes`, the changes waiting to be sent too (a sign-out). */
async function clearKept(changes) {
  await caches.delete(KEPT)
  if (changes) await new Promise((done) => {
    const req = indexedDB.deleteDatabase(QUEUE_DB)
    req.onsuccess = req.onerror = req.onblocked = () => done()
  })
}

const within = (w, now = Date.now()) => now >= w.from && now <= w.until

/** The days an event's roster may be opened offline: from a week before its first day to a week after its last. */
function windowOf(roster) {
  const first = Date.parse(`${roster.date}T00:00:00Z`)
  const last = Date.parse(`${roster.end_date ?? roster.date}T00:00:00Z`)
  return { from: first - WINDOW_DAYS * DAY, until: last + (WINDOW_DAYS + 1) * DAY }
}

/** Drops the kept answers of events whose week after has passed. */
async function dropPast() {
  const events = await readMeta(EVENTS_KEY, {})
  const cache = await caches.open(KEPT)
  for (const [uid, w] of Object.entries(events)) {
    if (within(w)) continue
    for (const what of ['roster', 'attendance']) await cache.delete(`/api/admin/calendar/${encodeURIComponent(uid)}/${what}`)
    delete events[uid]
  }
  await writeMeta(EVENTS_KEY, events)
}

/** An answer to keep, marked with when it was saved. */
async function stamped(res) {
  const headers = new Headers(res.headers)
  headers.set('x-saved-at', new Date().toISOString())
  return new Response(await res.blob(), { status: res.status, headers })
}

/**
 * Keeps one event's trip roster for offline use, as the page asks once it has shown it: the page and its files,
 * and the roster's and attendance's answers as the server gives them to this account. Answers what was kept.
 */
async function keep({ account, uid, page, files }) {
  if ((await readMeta(ACCOUNT_KEY, null)) !== account) {
    await clearKept(false)
    await writeMeta(ACCOUNT_KEY, account)
  }
  const base = `/api/admin/calendar/${encodeURIComponent(uid)}`
  const roster = await fetch(`${base}/roster`, { credentials: 'same-origin' })
  if (!roster.ok) return { kept: false, reason: 'refused' }
  const w = windowOf(await roster.clone().json())
  if (!within(w)) return { kept: false, reason: 'outside', from: new Date(w.from).toISOString() }
  const cache = await caches.open(KEPT)
  await cache.put(`${base}/roster`, await stamped(roster))
  const attendance = await fetch(`${base}/attendance`, { credentials: 'same-origin' }).catch(() => null)
  if (attendance?.ok) await cache.put(`${base}/attendance`, await stamped(attendance))
  for (const url of [page, ...files]) {
    const res = await fetch(url, { credentials: 'same-origin' }).catch(() => null)
    if (res?.ok) await cache.put(new URL(url, self.location.origin).pathname, res)
  }
  const events = await readMeta(EVENTS_KEY, {})
  events[uid] = w
  await writeMeta(EVENTS_KEY, events)
  return { kept: true, until: new Date(w.until - DAY).toISOString().slice(0, 10) }
}

self.addEventListener('message', (event) => {
  const reply = (answer) => event.ports[0]?.postMessage(answer)
  if (event.data?.type === 'keep')
    event.waitUntil(keep(event.data).then(reply, (e) => reply({ kept: false, reason: String(e) })))
  if (event.data?.type === 'clear') event.waitUntil(clearKept(true).then(() => reply({ cleared: true })))
})

/** A kept roster or attendance answer: from the network while there is one (refreshing the kept copy), else the copy. */
async function keptAnswer(request, path) {
  const cache = await caches.open(KEPT)
  const uid = decodeURIComponent(path.split('/')[4])
  const events = await readMeta(EVENTS_KEY, {})
  try {
    const res = await fetch(request)
    if (res.ok && events[uid] && within(events[uid])) await cache.put(path, await stamped(res.clone()))
    // The event is gone, or this account may no longer see it: its copy goes too.
    if (res.status === 403 || res.status === 404) await cache.delete(path)
    return res
  } catch (offline) {
    const copy = events[uid] && within(events[uid]) ? await cache.match(path) : undefined
    if (copy) return copy
    throw offline
  }
}

/** A page: from the network, else the kept copy of that page (any query), else the offline page. */
async function pageAnswer(request) {
  try {
    return await fetch(request)
  } catch {
    const path = new URL(request.url).pathname
    return (await (await caches.open(KEPT)).match(path)) ?? (await (await caches.open(SHELL)).match(OFFLINE_PAGE)) ?? Response.error()
  }
}

/** A file of the site (script, style, icon): from the network, else a kept copy. */
async function fileAnswer(request) {
  try {
    return await fetch(request)
  } catch (offline) {
    const path = new URL(request.url).pathname
    const copy = (await (await caches.open(KEPT)).match(path)) ?? (await (await caches.open(SHELL)).match(path))
    if (copy) return copy
    throw offline
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (request.method === 'POST' && url.pathname === '/logout')
    return event.respondWith(clearKept(true).then(() => fetch(request)))
  if (request.method === 'POST' && SIGN_IN.test(url.pathname))
    return event.respondWith(clearKept(false).then(() => fetch(request)))
  if (request.method !== 'GET') return
  if (KEPT_API.test(url.pathname)) return event.respondWith(keptAnswer(request, url.pathname))
  if (url.pathname.startsWith('/api/')) return
  if (request.mode === 'navigate') return event.respondWith(pageAnswer(request))
  event.respondWith(fileAnswer(request))
})
