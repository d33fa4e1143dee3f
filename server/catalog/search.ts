// Catalog search across every season, in memory: built once per catalog version from all rows, it answers a query
// by looking up the words of the names (never every row) and ranks the matches the same way on every load of the
// same content, so a page's cursor is a content position that survives reloads and restarts.
import { TYPO_MIN, searchText, withinOneEdit } from './fold.ts'

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
  row: R
}

export type MatchMode = 'full' | 'starts' | 'contains'

export interface SearchFilters {
  season?: string
  status?: string
  game_mode?: string
  row_name?: string
}

/**
 * Where a match sorts: its rank, then the row's season and place in its file. Ranks (lower first), each split into
 * confirmed before unconfirmed: a base or variant name that is the query, starts with it, has a word starting
 * with it, holds it; the same four for the row name; a typo in a name, then in the row name.
 */
export type Position = [rank: number, chapter: number, season_no: number, ord: number]

const NONE = 255
/** Kinds of match, best first; a rank is `level * 4 + kind`, except that every typo ranks below the rest. */
const EXACT = 0
const PREFIX = 1
const WORD_PREFIX = 2
const CONTAINS = 3
const TYPO = 4
const RANKS = 10
const rankOf = (row: boolean, kind: number) => (kind === TYPO ? 8 : kind) + (row ? (kind === TYPO ? 1 : 4) : 0)

/** Compressed lists: the items of list `k` are `items[starts[k]]` up to `items[starts[k + 1]]`. */
function lists(count: number, pairs: [number, number][]): { starts: Int32Array; items: Int32Array } {
  const starts = new Int32Array(count + 1)
  for (const [k] of pairs) starts[k + 1]++
  for (let k = 0; k < count; k++) starts[k + 1] += starts[k]
  const items = new Int32Array(pairs.length)
  const fill = starts.slice(0, count)
  for (const [k, item] of pairs) items[fill[k]++] = item
  return { starts, items }
}

/** The first index in [lo, hi) for which `before(i)` is false, for a `before` true on a prefix of the range. */
function bound(lo: number, hi: number, before: (i: number) => boolean) {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (before(mid)) lo = mid + 1
    else hi = mid
  }
  return lo
}

export function buildSearch<R>(input: readonly SearchRow<R>[]) {
  const rows = [...input].sort((a, b) => a.chapter - b.chapter || a.season_no - b.season_no || a.ord - b.ord)
  const n = rows.length
  // Every distinct folded name (base, variant and row names alike), sorted, so names starting with a query are one
  // range of ids; and every distinct word, sorted likewise.
  const textOf = rows.flatMap((r) => [searchText(r.base_name), searchText(r.variant), searchText(r.row_name)])
  const texts = [...new Set(textOf)].sort()
  const textId = new Map(texts.map((text, id) => [text, id]))
  const words = [...new Set(texts.flatMap((text) => text.split(' ')).filter(Boolean))].sort()
  const wordId = new Map(words.map((w, id) => [w, id]))
  const textsOfWord = lists(
    words.length,
    texts.flatMap((text, t) => [...new Set(text.split(' ').filter(Boolean))].map((w): [number, number] => [wordId.get(w)!, t])),
  )
  const baseT = new Int32Array(n)
  const variantT = new Int32Array(n)
  const rowT = new Int32Array(n)
  const pairs: [number, number][] = []
  rows.forEach((r, p) => {
    baseT[p] = textId.get(textOf[3 * p])!
    variantT[p] = textId.get(textOf[3 * p + 1])!
    rowT[p] = textId.get(textOf[3 * p + 2])!
    pairs.push([baseT[p], p])
    if (variantT[p] !== baseT[p]) pairs.push([variantT[p], p])
    if (rowT[p] !== baseT[p] && rowT[p] !== variantT[p]) pairs.push([rowT[p], p])
  })
  const rowsOfText = lists(texts.length, pairs)
  const confirmed = Uint8Array.from(rows, (r) => (r.confirmed ? 1 : 0))
  const chapter = Int32Array.from(rows, (r) => r.chapter)
  const seasonNo = Int32Array.from(rows, (r) => r.season_no)
  const ord = Int32Array.from(rows, (r) => r.ord)

  // Marks of the current query, told apart by a generation number so nothing is cleared between queries.
  let generation = 0
  const rowMark = new Int32Array(n)
  /** Per query word, each name's best kind of match for it (NONE: none). */
  const kindBuffers: Uint8Array[] = []

  /** Each name's best kind of match for one query word, through the words of the names. */
  function kindsFor(word: string, slot: number): Uint8Array {
    const kinds = (kindBuffers[slot] ??= new Uint8Array(texts.length))
    kinds.fill(NONE)
    const mark = (w: number, kind: number) => {
      for (let k = textsOfWord.starts[w]; k < textsOfWord.starts[w + 1]; k++) {
        const t = textsOfWord.items[k]
        if (kind < kinds[t]) kinds[t] = kind
      }
    }
    const lo = bound(0, words.length, (i) => words[i] < word)
    const hi = bound(lo, words.length, (i) => words[i].startsWith(word))
    for (let w = lo; w < hi; w++) mark(w, WORD_PREFIX)
    const typos = word.length >= TYPO_MIN
    for (let w = 0; w < words.length; w++) {
      if (w === lo) w = hi
      if (w >= words.length) break
      const other = words[w]
      if (other.length > word.length && other.includes(word)) mark(w, CONTAINS)
      // a typo in the whole word, or in what was typed of it so far
      else if (typos && other.length >= word.length - 1 && (withinOneEdit(word, other) || withinOneEdit(word, other.slice(0, word.length))))
        mark(w, TYPO)
    }
    return kinds
  }

  /** Marks the rows of these names; the marked rows, in position order. */
  function rowsOf(names: Iterable<number>, keep: (p: number) => boolean): Int32Array {
    const gen = ++generation
    let count = 0
    for (const t of names)
      for (let k = rowsOfText.starts[t]; k < rowsOfText.starts[t + 1]; k++) {
        const p = rowsOfText.items[k]
        if (rowMark[p] !== gen && keep(p)) {
          rowMark[p] = gen
          count++
        }
      }
    const out = new Int32Array(count)
    let at = 0
    // Many rows: walking them all in order beats sorting
    if (count > n >> 4) {
      for (let p = 0; p < n; p++) if (rowMark[p] === gen) out[at++] = p
      return out
    }
    for (const t of names)
      for (let k = rowsOfText.starts[t]; k < rowsOfText.starts[t + 1]; k++) {
        const p = rowsOfText.items[k]
        if (rowMark[p] === gen) {
          out[at++] = p
          rowMark[p] = 0
        }
      }
    return out.sort()
  }

  const textsWhere = (test: (text: string) => boolean) => {
    const ids: number[] = []
    texts.forEach((text, t) => test(text) && ids.push(t))
    return ids
  }

  /**
   * The matches after `after` (or from the start), at most `limit`, and the position of the last when more follow.
   * Without a query every row passing the filters matches, in season and file order.
   */
  function search(
    q: string,
    options: { match?: MatchMode; filters?: SearchFilters; after?: Position | null; limit: number },
  ): { rows: R[]; next: Position | null } {
    const f = options.filters ?? {}
    const rowKey = f.row_name === undefined ? -1 : (textId.get(searchText(f.row_name)) ?? -2)
    if (rowKey === -2) return { rows: [], next: null }
    const passes = (p: number) =>
      (f.season === undefined || rows[p].season === f.season) &&
      (f.status === undefined || rows[p].status === f.status) &&
      (f.game_mode === undefined || rows[p].game_mode === f.game_mode) &&
      (rowKey < 0 || rowT[p] === rowKey)
    const query = searchText(q)
    const qWords = query ? query.split(' ') : []
    const exact = textId.get(query) ?? -1
    const lo = bound(0, texts.length, (i) => texts[i] < query)
    const hi = bound(lo, texts.length, (i) => texts[i].startsWith(query))
    const isPrefix = (t: number) => t >= lo && t < hi
    /** The kind of match of a whole name for `match`: exact, prefix, a word's prefix or inside. */
    const wholeKind = (t: number) => (t === exact ? EXACT : isPrefix(t) ? PREFIX : texts[t].includes(` ${query}`) ? WORD_PREFIX : CONTAINS)

    let found: Int32Array
    let rankAt: (p: number) => number
    if (!query) {
      found = rowKey >= 0 ? rowsOf([rowKey], passes) : Int32Array.from({ length: n }, (_, p) => p).filter(passes)
      rankAt = () => 0
    } else if (options.match) {
      // fortnite-api's matchMethod: the base name as a whole
      const names =
        options.match === 'full'
          ? exact >= 0
            ? [exact]
            : []
          : options.match === 'starts'
            ? Array.from({ length: hi - lo }, (_, k) => lo + k)
            : textsWhere((text) => text.includes(query))
      const inNames = new Uint8Array(texts.length)
      for (const t of names) inNames[t] = 1
      found = rowsOf(names, (p) => inNames[baseT[p]] === 1 && passes(p))
      rankAt = (p) => rankOf(false, wholeKind(baseT[p]))
    } else {
      const kinds = qWords.map((w, i) => kindsFor(w, i))
      // Rows are found through the word with the fewest names; the other words are checked row by row.
      const namesOf = kinds.map((k) => {
        const ids: number[] = []
        for (let t = 0; t < k.length; t++) if (k[t] !== NONE) ids.push(t)
        return ids
      })
      const driver = namesOf.reduce((best, ids) => (ids.length < best.length ? ids : best))
      const everyWord = (p: number) => {
        for (const k of kinds) if (k[baseT[p]] === NONE && k[variantT[p]] === NONE && k[rowT[p]] === NONE) return false
        return true
      }
      found = rowsOf(driver, (p) => everyWord(p) && passes(p))
      rankAt = (p) => {
        const b = baseT[p]
        const v = variantT[p]
        const r = rowT[p]
        // The query as a whole: a name that is it or starts with it
        let rank = b === exact || v === exact ? rankOf(false, EXACT) : isPrefix(b) || isPrefix(v) ? rankOf(false, PREFIX) : RANKS
        if (rank > 0 && r === exact) rank = Math.min(rank, rankOf(true, EXACT))
        if (rank > 1 && isPrefix(r)) rank = Math.min(rank, rankOf(true, PREFIX))
        // Word by word, in any order: as good as the worst word's best match, in the names if every word is there
        let nameKind = EXACT
        let anyKind = EXACT
        for (const k of kinds) {
          const inName = Math.min(k[b], k[v])
          nameKind = Math.max(nameKind, inName)
          anyKind = Math.max(anyKind, Math.min(inName, k[r]))
        }
        return Math.min(rank, nameKind !== NONE ? rankOf(false, nameKind) : rankOf(true, anyKind))
      }
    }

    // Matches by rank (confirmed first within each), each rank in position order; then those after `after`.
    const byRank: number[][] = Array.from({ length: 2 * RANKS + 1 }, () => [])
    for (const p of found) byRank[2 * rankAt(p) + 1 - confirmed[p]].push(p)
    const after = options.after
    const out: number[] = []
    let last: Position | null = null
    for (let rank = after ? after[0] : 0; rank < byRank.length; rank++) {
      const list = byRank[rank]
      let k = 0
      if (after && rank === after[0]) {
        const [, c, s, o] = after
        k = bound(0, list.length, (i) => {
          const p = list[i]
          return chapter[p] < c || (chapter[p] === c && (seasonNo[p] < s || (seasonNo[p] === s && ord[p] <= o)))
        })
      }
      for (; k < list.length; k++) {
        if (out.length === options.limit) return { rows: out.map((p) => rows[p].row), next: last }
        const p = list[k]
        out.push(p)
        last = [rank, chapter[p], seasonNo[p], ord[p]]
      }
    }
    return { rows: out.map((p) => rows[p].row), next: null }
  }

  return { size: n, search }
}

export type SearchIndex<R> = ReturnType<typeof buildSearch<R>>

export const isPosition = (p: unknown[]): p is Position => p.length === 4 && p.every((x) => Number.isSafeInteger(x) && (x as number) >= 0)
