// The parts of catalog search that are not the index itself: what a row and a query's filters are, the kinds and
// ranks of a match, a cursor's position, and the small tools the index is built with.
import { Type as t } from '@sinclair/typebox'
import type { Filters } from './filters.ts'
/** What search needs of a row; `row` is answered as it is. */
export interface SearchRow<R> {
  season: string
  chapter: number
  season_no: number
  ord: number
  base_name: string
  row_name: string
  variant: string
  status: string
  game_mode: string
  confirmed: boolean
  added_at?: string
  row: R
}

export type MatchMode = 'full' | 'starts' | 'ends' | 'contains'

/** The filters of a search: those of every catalog list (row_name folded), and seasons. */
export type SearchFilters = Filters & { season?: string[] }

/**
 * Where a match sorts: its rank, then the row's season and place in its file. Ranks (lower first), each split into
 * confirmed before unconfirmed: a base or variant name that is the query, starts with it, has a word starting
 * with it, holds it; the same four for the row name; a typo in a name, then in the row name.
 */
/** A search cursor: the last match's rank, chapter, season number and place in its file. */
export const SearchPosition = t.Tuple([
  t.Integer({ minimum: 0 }),
  t.Integer({ minimum: 0 }),
  t.Integer({ minimum: 0 }),
  t.Integer({ minimum: 0 }),
])
export type Position = [rank: number, chapter: number, season_no: number, ord: number]

export const NONE = 255
/** Words shorter than this, in a query of several words, match only the start of a word. */
export const SHORT = 3
export const EMPTY = new Int32Array(0)
/** Kinds of match, best first; a rank is `level * 4 + kind`, except that every typo ranks below the rest. */
export const EXACT = 0
export const PREFIX = 1
export const WORD_PREFIX = 2
export const CONTAINS = 3
export const TYPO = 4
export const RANKS = 10
/** Up to this many candidate rows are gathered and sorted; above it every row is looked at in one pass. */
export const GATHER_MAX = 4096
export const rankOf = (row: boolean, kind: number) => (kind === TYPO ? 8 : kind) + (row ? (kind === TYPO ? 1 : 4) : 0)

/** A number for the `len` (≤ 3) UTF-16 units of `s` at `at`, so pieces are map keys without making strings. */
export const piece = (s: string, at: number, len: number) => {
  let key = 0
  for (let j = len - 1; j >= 0; j--) key = key * 65536 + s.charCodeAt(at + j)
  return key * 4 + len
}

/** A word and every form of it with one letter left out. */
export const deletions = (word: string) => [word, ...Array.from({ length: word.length }, (_, i) => word.slice(0, i) + word.slice(i + 1))]

/**
 * Compressed lists: the items of list `k` are `items[starts[k]]` up to `items[starts[k + 1]]`. `pairs` holds each
 * list number and its item one after the other (flat numbers rather than a small array per pair: a build makes
 * hundreds of thousands of them).
 */
export function lists(count: number, pairs: number[]): { starts: Int32Array; items: Int32Array } {
  const starts = new Int32Array(count + 1)
  for (let i = 0; i < pairs.length; i += 2) starts[pairs[i] + 1]++
  for (let k = 0; k < count; k++) starts[k + 1] += starts[k]
  const items = new Int32Array(pairs.length / 2)
  const fill = starts.slice(0, count)
  for (let i = 0; i < pairs.length; i += 2) items[fill[pairs[i]]++] = pairs[i + 1]
  return { starts, items }
}

/** The first index in [lo, hi) for which `before(i)` is false, for a `before` true on a prefix of the range. */
export function bound(lo: number, hi: number, before: (i: number) => boolean) {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (before(mid)) lo = mid + 1
    else hi = mid
  }
  return lo
}
