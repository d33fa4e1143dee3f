// A trip roster kept on this phone for use without signal (public/sw.js keeps it; docs/decisions/0155): who is signed
// in, or offline the account last seen here; asking the service worker to keep the roster the page shows; and the
// words for the page's offline note.
import type { AnswerOf } from '#server/routes.ts'
import { instantWords } from '#server/instant-words.ts'
import { dayWords } from '#server/words.ts'
import { signedInFor, SITE_ZONE, type Route } from './admin.ts'
import type { AdminHref } from './admin-pages.ts'
import { keepOnly } from './offline-queue.ts'

type Me = AnswerOf<Route<'GET /api/admin/whoami'>>
/** localStorage: the account this phone's kept changes belong to. */
const ACCOUNT = 'offline-account'
const KEPT = 'kept-v1' // the service worker's cache of kept rosters

const accountOf = (me: Me) => (me.person ? `person:${me.person.id}` : me.via)

/**
 * The signed-in person when the page may be used (admin.ts signedInFor), and their account's name for the queue of
 * changes; with no signal at all, no person and the account last signed in on this phone. Another account than last
 * time drops what the last one left waiting.
 */
export async function signedInOrOffline(page: AdminHref): Promise<{ me: Me | null; account: string | null }> {
  try {
    const me = await signedInFor(page)
    const account = accountOf(me)
    if (localStorage.getItem(ACCOUNT) !== account) {
      await keepOnly(account)
      localStorage.setItem(ACCOUNT, account)
    }
    return { me, account }
  } catch (problem) {
    if (navigator.onLine && !String(problem).includes('No answer')) throw problem
    return { me: null, account: localStorage.getItem(ACCOUNT) }
  }
}

/** Asks the service worker something and waits for its answer. */
async function ask<T>(message: Record<string, unknown>): Promise<T | null> {
  if (!('serviceWorker' in navigator)) return null
  const worker = (await navigator.serviceWorker.ready).active
  if (!worker) return null
  const channel = new MessageChannel()
  const answer = new Promise<T>((resolve) => (channel.port1.onmessage = (e) => resolve(e.data)))
  worker.postMessage(message, [channel.port2])
  return answer
}

/**
 * Keeps this page and the event's roster and attendance on the phone, as this account sees them, when the event is
 * within a week; answers what the page says about it.
 */
export async function keepForOffline(uid: string, account: string): Promise<string> {
  const files = performance
    .getEntriesByType('resource')
    .map((e) => new URL(e.name))
    .filter((u) => u.origin === location.origin && !u.pathname.startsWith('/api/'))
    .map((u) => u.pathname)
  const answer = await ask<{ kept: boolean; until?: string; reason?: string }>({ type: 'keep', uid, account, page: location.href, files })
  if (!answer) return ''
  if (answer.kept) return `Saved on this phone: it opens without a signal until ${dayWords(answer.until!, { year: true })}.`
  if (answer.reason === 'outside') return 'Opens without a signal once saved in the week before or after the event: open it again then.'
  return ''
}

/** When the kept copy of this event's roster was saved (" on Nov 28, 2026, 7:20 PM"), for the offline note. */
export async function savedAt(uid: string): Promise<string> {
  if (!('caches' in window)) return ''
  const copy = await (await caches.open(KEPT)).match(`/api/admin/calendar/${encodeURIComponent(uid)}/roster`)
  const at = copy?.headers.get('x-saved-at')
  return at ? ` on ${instantWords(at, SITE_ZONE)}` : ''
}
