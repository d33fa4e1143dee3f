// Autocomplete for the bot: an index per season and catalog version, built once from the season's rows, that finds
// the best matches for a prefix or a piece of a name without looking at every variant.
import type { Executor } from '../db/database.ts'
import { HttpError, notFound } from '../errors.ts'
import { cachedBody } from './http.ts'
import { catalogRows } from './queries.ts'
import { foldName } from './fold.ts'

/**
 * Text as autocomplete compares it: folded as catalog search folds names (NFKD, marks removed, lower case), runs of
 * white space as one space, trimmed. So "Nandú" and " NANDU " are both "nandu".
 */
export const fold = (text: string) => foldName(text).replace(/\s+/g, ' ').trim()

/** What the index needs of a row; the rest of it is answered as it is. */
export interface IndexedRow {
  base_name: string
  row_name: string
  variant: string
  confirmed: boolean
}

/** Up to this many rows of matching names are collected and sorted; above it, rows are walked in answer order. */
const GATHER_MAX = 4096
const encoder = new TextEncoder()

export interface AutocompleteIndex {
  season: string
  size: number
  /** Positions of the best `limit` matches, best first (see `ranked`). */
  search(q: string, limit: number): number[]
  /** The best `limit` matches as [position, class]: base-name matches (classes 0–3) before row-name ones (4–7). */
  ranked(q: string, limit: number): [number, number][]
  /** The JSON of the row at a position. */
  row(pos: number): Uint8Array<ArrayBuffer>
  /** The JSON answer `{season, q, matches}` for an already folded `q`. */
  answer(q: string, limit: number): Uint8Array<ArrayBuffer>
}

/** A number for the `len` UTF-16 units of `s` at `at` (len ≤ 3), so pieces are map keys without making strings. */
const piece = (s: string, at: number, len: number) => {
  let key = 0
  for (let j = len - 1; j >= 0; j--) key = key * 65536 + s.charCodeAt(at + j)
  return key * 4 + len
}

/** Each name's rows: those of name `id` are `items[starts[id]]` up to `items[starts[id + 1]]`, in position order. */
interface Postings {
  starts: Int32Array
  items: Int32Array
}

/** The postings of `count` names from each position's name id. */
function postingsOf(count: number, idAt: Int32Array): Postings {
  const starts = new Int32Array(count + 1)
  for (const id of idAt) starts[id + 1]++
  for (let id = 0; id < count; id++) starts[id + 1] += starts[id]
  const items = new Int32Array(idAt.length)
  const fill = starts.slice(0, count)
  idAt.forEach((id, pos) => (items[fill[id]++] = pos))
  return { starts, items }
}

/**
 * What an index keeps of one season's rows, built apart from the index's search functions: a closure keeps every
 * variable of its scope that any closure there names, so building beside them kept every row object alive.
 */
function indexParts(rows: readonly IndexedRow[]) {
  const n = rows.length
  const collator = new Intl.Collator()
  // Answer order by counting sort on (confirmed, rank of the base name), each base name compared once; then the
  // variants of one sprite among themselves.
  const bases = [...new Set(rows.map((r) => r.base_name))].sort(collator.compare)
  const baseRank = new Map<string, number>()
  bases.forEach((b, i) => baseRank.set(b, i > 0 && collator.compare(bases[i - 1], b) === 0 ? baseRank.get(bases[i - 1])! : i))
  const keyOf = Int32Array.from(rows, (r) => (r.confirmed ? 0 : bases.length) + baseRank.get(r.base_name)!)
  const bucket = new Int32Array(2 * bases.length + 1)
  for (const key of keyOf) bucket[key + 1]++
  for (let k = 0; k < 2 * bases.length; k++) bucket[k + 1] += bucket[k]
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[bucket[keyOf[i]]++] = i
  for (let at = 0; at < n;) {
    let end = at + 1
    while (end < n && keyOf[order[end]] === keyOf[order[at]]) end++
    if (end - at > 1)
      order.set(
        Array.from(order.subarray(at, end)).sort((a, b) => collator.compare(rows[a].variant, rows[b].variant)),
        at,
      )
    at = end
  }
  const confirmed = rows.filter((r) => r.confirmed).length

  const folded = new Map<string, string>()
  for (const r of rows) for (const name of [r.base_name, r.row_name]) if (!folded.has(name)) folded.set(name, fold(name))
  const names = [...new Set(folded.values())].sort()
  const nameId = new Map(names.map((name, id) => [name, id]))
  const idOf = new Map([...folded].map(([name, f]) => [name, nameId.get(f)!]))
  const baseId = new Int32Array(n)
  const rowId = new Int32Array(n)
  order.forEach((i, pos) => {
    baseId[pos] = idOf.get(rows[i].base_name)!
    rowId[pos] = idOf.get(rows[i].row_name)!
  })
  // Each name's rows as a base name, and as a row name, in position order.
  const byBase = postingsOf(names.length, baseId)
  const byRow = postingsOf(names.length, rowId)

  const pieces = new Map<number, number[]>()
  names.forEach((name, id) => {
    for (let len = 1; len <= 3; len++)
      for (let at = 0; at + len <= name.length; at++) {
        const key = piece(name, at, len)
        const ids = pieces.get(key)
        if (!ids) pieces.set(key, [id])
        else if (ids[ids.length - 1] !== id) ids.push(id)
      }
  })
  const grams = new Map<number, Int32Array>()
  for (const [key, ids] of pieces) grams.set(key, Int32Array.from(ids))
  pieces.clear()

  // The rows' JSON, one UTF-8 buffer in position order, so an answer is copied together rather than serialised.
  const parts = Array.from(order, (i) => JSON.stringify(rows[i]))
  const offsets = new Int32Array(n + 1)
  parts.forEach((part, pos) => (offsets[pos + 1] = offsets[pos] + Buffer.byteLength(part)))
  const json = encoder.encode(parts.join(''))
  return { n, confirmed, names, baseId, rowId, byBase, byRow, grams, offsets, json }
}

/**
 * The index of one season's rows. Rows are numbered in the order answers use (confirmed first, then base_name and
 * variant as `localeCompare` orders them, then file order; rarity_weight never takes part), so among matches of the
 * same kind the lower number wins. Folded names are kept once each, sorted, so the names starting with the query
 * are one range found by binary search; names holding it elsewhere come from a map of each name's 1-, 2- and
 * 3-unit pieces (the rarest piece of the query, then a check of those names only). Each name lists its rows as a base name and, apart, as a row name.
 */
export function buildIndex(season: string, rows: readonly IndexedRow[], { gatherMax = GATHER_MAX } = {}): AutocompleteIndex {
  const { n, confirmed, names, baseId, rowId, byBase, byRow, grams, offsets, json } = indexParts(rows)

  // Marks of the current search, told apart by a generation number so nothing is cleared between searches.
  let generation = 0
  const innerMark = new Int32Array(names.length)
  const rowMark = new Int32Array(n)

  /** The first name id at or after `from` for which `before(name)` is false. */
  const bound = (from: number, before: (name: string) => boolean) => {
    let lo = from
    let hi = names.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (before(names[mid])) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Names that may hold `q`: those holding its rarest piece (exactly those when `q` is at most 3 units long). */
  const holders = (q: string): Int32Array | undefined => {
    if (q.length <= 3) return grams.get(piece(q, 0, q.length))
    let rarest: Int32Array | undefined
    for (let at = 0; at + 3 <= q.length; at++) {
      const ids = grams.get(piece(q, at, 3))
      if (!ids) return undefined
      if (!rarest || ids.length < rarest.length) rarest = ids
    }
    return rarest
  }

  /** The rows of these names (as base names, or as row names), once each, in position order. */
  const rowsOf = (ids: Iterable<number>, { starts, items }: Postings) => {
    const gen = ++generation
    const found: number[] = []
    for (const id of ids)
      for (let k = starts[id]; k < starts[id + 1]; k++) {
        const pos = items[k]
        if (rowMark[pos] !== gen) found.push(pos)
        rowMark[pos] = gen
      }
    return Int32Array.from(found).sort()
  }

  /**
   * Up to `need` matches of one kind between positions `from` and `to`, in order: from the sorted list when there
   * is one, else by walking those positions (the matches are then common, so the walk ends soon).
   */
  const take = (sorted: Int32Array | null, test: (pos: number) => boolean, from: number, to: number, need: number, out: number[]) => {
    if (sorted) {
      let at = 0
      let hi = sorted.length
      while (at < hi) {
        const mid = (at + hi) >>> 1
        if (sorted[mid] < from) at = mid + 1
        else hi = mid
      }
      for (; at < sorted.length && sorted[at] < to && need > 0; at++)
        if (test(sorted[at])) {
          out.push(sorted[at])
          need--
        }
    } else
      for (let pos = from; pos < to && need > 0; pos++)
        if (test(pos)) {
          out.push(pos)
          need--
        }
  }

  function ranked(q: string, limit: number): [number, number][] {
    if (q === '') return Array.from({ length: Math.min(limit, n) }, (_, pos) => [pos, 0])
    const lo = bound(0, (name) => name < q)
    const hi = bound(lo, (name) => name.startsWith(q))
    // Whether a name holds q, asked once per name and search: +mark yes, -mark no.
    const mark = ++generation
    const holds = (id: number) => {
      if (innerMark[id] !== mark && innerMark[id] !== -mark) innerMark[id] = names[id].includes(q) ? mark : -mark
      return innerMark[id] === mark
    }
    // The names holding q elsewhere than at the start, until they have too many rows to sort (as base names and as
    // row names); the rest are then asked only as the walk meets them.
    const inner: number[] = []
    let innerBase = 0
    let innerRow = 0
    for (const id of holders(q) ?? []) {
      if (id >= lo && id < hi) continue
      if (q.length <= 3) innerMark[id] = mark
      else if (!holds(id)) continue
      inner.push(id)
      innerBase += byBase.starts[id + 1] - byBase.starts[id]
      innerRow += byRow.starts[id + 1] - byRow.starts[id]
      if (innerBase > gatherMax && innerRow > gatherMax) break
    }
    const prefixes = () => Array.from({ length: hi - lo }, (_, k) => lo + k)
    const few = (count: number, ids: () => Iterable<number>, postings: Postings) => (count <= gatherMax ? rowsOf(ids(), postings) : null)
    const isBase = (pos: number) => holds(baseId[pos])
    const basePrefix = (pos: number) => baseId[pos] >= lo && baseId[pos] < hi
    const rowPrefix = (pos: number) => rowId[pos] >= lo && rowId[pos] < hi
    // By class: base-name matches, then row-name ones; within each confirmed, then unconfirmed; within those the
    // names starting with q, then those holding it elsewhere. Each class's rows come from its names' rows when
    // they are few, else from a walk in position order, which ends soon since such matches are common.
    const tests = [
      basePrefix,
      (pos: number) => !basePrefix(pos) && isBase(pos),
      (pos: number) => !isBase(pos) && rowPrefix(pos),
      (pos: number) => !isBase(pos) && !rowPrefix(pos) && holds(rowId[pos]),
    ]
    const lists = [
      few(byBase.starts[hi] - byBase.starts[lo], prefixes, byBase),
      few(innerBase, () => inner, byBase),
      few(byRow.starts[hi] - byRow.starts[lo], prefixes, byRow),
      few(innerRow, () => inner, byRow),
    ]
    const out: [number, number][] = []
    for (const level of [0, 2])
      for (const [from, to, unconfirmed] of [
        [0, confirmed, 0],
        [confirmed, n, 1],
      ])
        for (const inside of [0, 1]) {
          const found: number[] = []
          take(lists[level + inside], tests[level + inside], from, to, limit - out.length, found)
          const cls = 2 * level + 2 * unconfirmed + inside
          for (const pos of found) out.push([pos, cls])
        }
    return out
  }

  const search = (q: string, limit: number) => ranked(q, limit).map(([pos]) => pos)

  return {
    season,
    size: n,
    search,
    ranked,
    row: (pos) => json.subarray(offsets[pos], offsets[pos + 1]),
    answer(q, limit) {
      const found = search(q, limit)
      const head = encoder.encode(`{"season":${JSON.stringify(season)},"q":${JSON.stringify(q)},"matches":[`)
      let length = head.length + Math.max(found.length - 1, 0) + 2
      for (const pos of found) length += offsets[pos + 1] - offsets[pos]
      const body = new Uint8Array(length)
      body.set(head)
      let at = head.length
      found.forEach((pos, k) => {
        if (k) body[at++] = 0x2c // ,
        body.set(json.subarray(offsets[pos], offsets[pos + 1]), at)
        at += offsets[pos + 1] - offsets[pos]
      })
      body[at++] = 0x5d // ]
      body[at] = 0x7d // }
      return body
    },
  }
}

/** Per database (one per running service; tests run several in one process), each season's newest index. */
const indexes = new WeakMap<Executor, Map<string, { version: number; index: Promise<AutocompleteIndex> }>>()
const databaseIds = new WeakMap<Executor, number>()
let databases = 0

/** The season's index at this catalog version, built from its rows in one query when missing or stale; 404 for a season not served. */
export function autocompleteIndex(db: Executor, season: string, version: number): Promise<AutocompleteIndex> {
  let seasons = indexes.get(db)
  if (!seasons) indexes.set(db, (seasons = new Map()))
  const held = seasons.get(season)
  // The newest index serves a request made at an older version too: nothing older is kept.
  if (held && held.version >= version) return held.index
  const index = catalogRows(db, season, {}).then((rows) => {
    if (!rows.length) throw notFound(`No season ${season}`)
    return buildIndex(season, rows)
  })
  // A failed build (a season no longer served) is not remembered; a request that read an older version never
  // replaces a newer index.
  index.catch(() => seasons.get(season)?.index === index && seasons.delete(season))
  if (!held || held.version < version) seasons.set(season, { version, index })
  return index
}

/**
 * Builds a season's index ahead of its first autocomplete, for the loader to call after a season is loaded or
 * removed (a removed season's index is dropped). Never throws: a failed build is logged and retried on first use.
 */
export async function warmAutocomplete(db: Executor, season: string, version: number): Promise<void> {
  try {
    await autocompleteIndex(db, season, version)
  } catch (e) {
    if (!(e instanceof HttpError && e.status === 404)) console.error(`autocomplete index for ${season} failed`, e)
  }
}

/**
 * The answer to `GET /api/catalog/{season}/autocomplete`, cached per season, folded query and limit (so "Nandú" and
 * "nandu" share one answer, which echoes the folded query) with its ETags and compressed forms.
 */
export function autocompleteResponse(
  request: Request,
  db: Executor,
  season: string,
  versionNow: () => number,
  query: { q: string; limit?: number },
): Response | Promise<Response> {
  const q = fold(query.q)
  const limit = query.limit ?? 20
  let database = databaseIds.get(db)
  if (database === undefined) databaseIds.set(db, (database = ++databases))
  const key = JSON.stringify(['autocomplete', database, season, q, limit])
  return cachedBody(request, key, versionNow, async (version) => (await autocompleteIndex(db, season, version)).answer(q, limit))
}
