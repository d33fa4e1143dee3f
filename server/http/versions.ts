// Versions of single admin resources, so two leaders editing the same household cannot silently overwrite each
// other: a GET of one resource answers a strong ETag (a hash of its JSON) and 304 to a matching If-None-Match; a
// PATCH, PUT or DELETE at the same path with `If-Match` answers 412 when what GET answers now no longer matches, and
// its answer carries the ETag of what GET answers after it; a POST that creates one answers 201 with its ETag. The check and the write run one at a time per path, so
// no other write slips between them. Without If-Match a write goes ahead as before.
import { createHash } from 'node:crypto'
import { HttpError } from '../errors.ts'
import { isAdminPath } from './edge.ts'
import type { Answer, LoadedRoute } from '../routes.ts'

/** The strong ETag of a JSON answer. */
export const etagOf = (json: string) => `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`

/**
 * Mount paths of single admin resources: under /api/admin, read with GET, and named by a path parameter or changed
 * with PATCH or PUT at the same path (`/api/admin/account`).
 */
export function versionedPaths(registry: LoadedRoute[]): Set<string> {
  const at = Map.groupBy(
    registry.filter((r) => !r.tail && isAdminPath(r.path)),
    (r) => r.path,
  )
  const paths = new Set<string>()
  for (const [path, routes] of at) {
    const methods = routes.map((r) => r.method)
    const get = routes.find((r) => r.method === 'GET')
    const json =
      get && Object.entries(get.def.responses).some(([s, a]) => s.startsWith('2') && typeof a === 'object' && !!(a as Answer).schema)
    if (json && (path.includes(':') || methods.includes('PATCH') || methods.includes('PUT'))) paths.add(path)
  }
  return paths
}

/**
 * For a POST at `path` that creates a resource: the path parameter of the one versioned resource read just below
 * it (`/api/admin/nearby` → `id`, read at `/api/admin/nearby/:id`), so its 201 can carry the ETag that GET answers;
 * null when there is none.
 */
export function createdParam(path: string, versioned: Set<string>): string | null {
  const below = [...versioned].filter((p) => p.startsWith(`${path}/:`) && !p.slice(path.length + 2).includes('/'))
  return below.length === 1 ? below[0].slice(path.length + 2) : null
}

/**
 * True when an If-None-Match value is `*` or lists `etag` (RFC 9110 §13.1.2): weak comparison, so `W/"x"` names
 * `"x"` too. A value that is not a list of entity tags matches nothing, which costs at most a full answer.
 */
export function noneMatch(value: string, etag: string): boolean {
  if (value === etag) return true
  let i = 0
  for (;;) {
    while (i < value.length && (value[i] === ' ' || value[i] === '\t' || value[i] === ',')) i++
    if (i === value.length) return false
    if (value[i] === '*') return value.trim() === '*'
    if (value.startsWith('W/', i)) i += 2
    if (value[i] !== '"') return false
    const end = value.indexOf('"', i + 1)
    if (end < 0) return false
    if (end + 1 - i === etag.length && value.startsWith(etag, i)) return true
    i = end + 1
  }
}

/** Whether an If-Match field matches `etag` (strong comparison: a weak tag never matches), or `*` for any. */
export function ifMatches(value: string, etag: string | null): boolean {
  if (etag === null) return false
  if (value.trim() === '*') return true
  return value.split(',').some((tag) => tag.trim() === etag)
}

export const preconditionFailed = () =>
  new HttpError(412, 'The resource changed since you read it (If-Match no longer matches): read it again and redo your change')

/** Runs writes to the same resource one at a time. */
export class PathLocks {
  private readonly tails = new Map<string, Promise<unknown>>()

  run<T>(path: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(path) ?? Promise.resolve()
    const mine = before.then(work, work)
    const tail = mine.catch(() => {})
    this.tails.set(path, tail)
    void tail.then(() => {
      if (this.tails.get(path) === tail) this.tails.delete(path)
    })
    return mine
  }
}
