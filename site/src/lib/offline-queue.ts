// Changes made on this phone that the server has not answered yet, kept in IndexedDB so that a reload, a lost signal
// or a closed tab loses none: each is sent with its own Idempotency-Key, in the order made, and again with the same
// key until an answer comes, so none is done twice. A refusal (someone else changed it, the event moved, the right
// was taken away) is kept as a conflict and shown until the person dismisses it: never dropped unseen. Signing out
// deletes the store (public/sw.js); changes another account made on this phone are dropped when it is not theirs.
const DB = 'offline-changes' // the service worker deletes it by this name on sign-out
const STORE = 'changes'

export interface Change {
  /** The Idempotency-Key, and the change's id. */
  key: string
  /** Whose change it is (lib/offline-roster.ts `accountOf`): sent only while that account is signed in. */
  account: string
  method: 'PUT' | 'POST' | 'PATCH' | 'DELETE'
  path: string
  body: unknown
  /** What the change is about ("scout:31" on one attendance path): a newer change on the same slot replaces a waiting one. */
  slot: string
  /** The change in words, for the list of conflicts: "Alex Avery: here". */
  label: string
  queued_at: string
  /** The server's refusal: a conflict to show. */
  refusal?: { status: number; detail: string; code?: string }
}

let opened: Promise<IDBDatabase> | undefined
function database(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1)
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'key' })
    req.onsuccess = () => {
      // A sign-out deletes the database: let it go at once, and open it afresh next time.
      req.result.onversionchange = () => {
        req.result.close()
        opened = undefined
      }
      resolve(req.result)
    }
    req.onerror = () => reject(req.error)
  })
  return opened
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  const tx = (await database()).transaction(STORE, mode)
  const req = work(tx.objectStore(STORE))
  await new Promise((done, fail) => {
    tx.oncomplete = done
    tx.onerror = tx.onabort = () => fail(tx.error)
  })
  return req ? req.result : undefined
}

/** Every change kept, oldest first. */
export async function changes(): Promise<Change[]> {
  const all = (await run<Change[]>('readonly', (s) => s.getAll())) ?? []
  return all.sort((a, b) => a.queued_at.localeCompare(b.queued_at))
}

/**
 * Keeps a change to send. An older change on the same path and slot is replaced: the newer one says what holds, and
 * answers an older conflict there.
 */
export async function enqueue(change: Omit<Change, 'queued_at'>): Promise<void> {
  const older = (await changes()).filter((c) => c.path === change.path && c.slot === change.slot && c.key !== change.key)
  await run('readwrite', (s) => {
    for (const c of older) s.delete(c.key)
    s.put({ ...change, queued_at: new Date().toISOString() })
  })
}

/** Forgets a change (a conflict the person dismissed). */
export const forget = (key: string) => run('readwrite', (s) => s.delete(key)).then(() => notify())

/** Drops what another account left on this phone. */
export async function keepOnly(account: string): Promise<void> {
  const others = (await changes()).filter((c) => c.account !== account)
  if (others.length) await run('readwrite', (s) => others.forEach((c) => s.delete(c.key)))
}

type Outcome = 'sent' | 'waiting' | 'signed-out'
const listeners = new Set<() => void>()
/** Runs `listener` after each send or change of the queue. */
export const onQueueChange = (listener: () => void) => listeners.add(listener)
const notify = () => listeners.forEach((l) => l())

const RETRY_MS = [1000, 2000, 4000, 8000, 15_000, 30_000]
let flushing: Promise<Outcome> | null = null
let tries = 0
let timer: ReturnType<typeof setTimeout> | undefined

/** One change sent: 'sent' once answered (done or refused), 'waiting' with no answer, 'signed-out' on a 401. */
async function sendOne(change: Change): Promise<Outcome> {
  const res = await fetch(change.path, {
    method: change.method,
    headers: { 'content-type': 'application/json', 'idempotency-key': change.key },
    body: JSON.stringify(change.body),
    credentials: 'same-origin',
  }).catch(() => null)
  if (!res || res.status >= 500 || res.status === 408 || res.status === 429) return 'waiting'
  if (res.status === 401) return 'signed-out'
  if (res.ok) await run('readwrite', (s) => s.delete(change.key))
  else {
    const body = await res.json().catch(() => ({}))
    const detail = typeof body.detail === 'string' ? body.detail : `Refused (${res.status})`
    await run('readwrite', (s) => s.put({ ...change, refusal: { status: res.status, detail, code: body.code } }))
  }
  return 'sent'
}

/**
 * Sends the account's waiting changes in order, stopping at the first that gets no answer; while any wait, tries
 * again soon, then every half minute, and at once when the browser says it is back online.
 */
export function flush(account: string): Promise<Outcome> {
  flushing ??= (async () => {
    // Changes made while sending are sent in the same round, each after the ones before it.
    for (;;) {
      const next = (await changes()).find((c) => !c.refusal && c.account === account)
      if (!next) return 'sent' as Outcome
      const outcome = await sendOne(next)
      if (outcome !== 'sent') return outcome
    }
  })().finally(() => (flushing = null))
  return flushing.then((outcome) => {
    clearTimeout(timer)
    tries = outcome === 'waiting' ? tries + 1 : 0
    if (outcome === 'waiting') timer = setTimeout(() => void flush(account), RETRY_MS[Math.min(tries - 1, RETRY_MS.length - 1)])
    notify()
    return outcome
  })
}

/** Flushes whenever the browser says the network is back. */
export function flushWhenOnline(account: string) {
  addEventListener('online', () => void flush(account))
}
