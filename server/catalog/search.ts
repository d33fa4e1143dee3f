// Catalog search across every season, in memory: built once per catalog version from all rows, it answers a query
// by looking up the words of the names (never every row) and ranks the matches the same way on every load of the
// same content, so a page's cursor is a content position that survives reloads and restarts.
import { TYPO_MIN, searchText, withinOneEdit } from './fold.ts'
import {
  bound,
  CONTAINS,
  deletions,
  EMPTY,
  EXACT,
  GATHER_MAX,
  lists,
  type MatchMode,
  NONE,
  piece,
  type Position,
  PREFIX,
  rankOf,
  RANKS,
  type SearchFilters,
  type SearchRow,
  SHORT,
  TYPO,
  WORD_PREFIX,
} from './search-parts.ts'
import { rowTest } from './filters.ts'

export { SearchPosition, type SearchRow } from './search-parts.ts'
export function buildSearch<R>(input: readonly SearchRow<R>[]) {
  const rows = [...input].sort((a, b) => a.chapter - b.chapter || a.season_no - b.season_no || a.ord - b.ord)
  const n = rows.length
  // Every distinct folded name (base, variant and row names alike), sorted, so names starting with a query are one
  // range of ids; and every distinct word, sorted likewise.
  // Each distinct name folded once: a base name is shared by its variants and a row name by its row, so 300,000
  // names at 100,000 variants fold as about 25,000, and folding leaves that much less garbage behind.
  const folded = new Map<string, string>()
  const fold = (name: string) => {
    let text = folded.get(name)
    if (text === undefined) folded.set(name, (text = searchText(name)))
    return text
  }
  const textOf: string[] = []
  for (const r of rows) textOf.push(fold(r.base_name), fold(r.variant), fold(r.row_name))
  folded.clear()
  const texts = [...new Set(textOf)].sort()
  const textId = new Map(texts.map((text, id) => [text, id]))
  const words = [...new Set(texts.flatMap((text) => text.split(' ')).filter(Boolean))].sort()
  const wordId = new Map(words.map((w, id) => [w, id]))
  const textsOfWord = lists(
    words.length,
    texts.flatMap((text, t) => [...new Set(text.split(' ').filter(Boolean))].flatMap((w) => [wordId.get(w)!, t])),
  )
  // Each word's pieces of 1 to 3 units (for words holding a query word), and the word itself and its one-letter
  // deletions as keys (two words one edit apart share a key: SymSpell's idea).
  const gramLists = new Map<number, number[]>()
  const typoLists = new Map<string, number[]>()
  words.forEach((word, id) => {
    for (let len = 1; len <= 3; len++)
      for (let at = 0; at + len <= word.length; at++) {
        const key = piece(word, at, len)
        const ids = gramLists.get(key)
        if (!ids) gramLists.set(key, [id])
        else if (ids[ids.length - 1] !== id) ids.push(id)
      }
    if (word.length >= TYPO_MIN - 1)
      for (const key of deletions(word)) {
        const ids = typoLists.get(key)
        if (!ids) typoLists.set(key, [id])
        else if (ids[ids.length - 1] !== id) ids.push(id)
      }
  })
  const grams = new Map([...gramLists].map(([key, ids]) => [key, Int32Array.from(ids)]))
  const typoKeys = new Map([...typoLists].map(([key, ids]) => [key, Int32Array.from(ids)]))
  const baseT = new Int32Array(n)
  const variantT = new Int32Array(n)
  const rowT = new Int32Array(n)
  const pairs: number[] = []
  rows.forEach((r, p) => {
    baseT[p] = textId.get(textOf[3 * p])!
    variantT[p] = textId.get(textOf[3 * p + 1])!
    rowT[p] = textId.get(textOf[3 * p + 2])!
    pairs.push(baseT[p], p)
    if (variantT[p] !== baseT[p]) pairs.push(variantT[p], p)
    if (rowT[p] !== baseT[p] && rowT[p] !== variantT[p]) pairs.push(rowT[p], p)
  })
  const rowsOfText = lists(texts.length, pairs)
  // The build's own lists stay reachable from the callbacks above for as long as the index lives: emptied now.
  textOf.length = pairs.length = 0
  gramLists.clear()
  typoLists.clear()
  wordId.clear()
  const confirmed = Uint8Array.from(rows, (r) => (r.confirmed ? 1 : 0))
  const chapter = Int32Array.from(rows, (r) => r.chapter)
  const seasonNo = Int32Array.from(rows, (r) => r.season_no)
  const ord = Int32Array.from(rows, (r) => r.ord)

  // Marks of the current query, told apart by a generation number so nothing is cleared between queries.
  let generation = 0
  const rowMark = new Int32Array(n)
  /** Per query, each name's rank as a base or variant name and as a row name. */
  const nameRank = new Uint8Array(texts.length)
  const rowRank = new Uint8Array(texts.length)
  /** Per query word, each name's best kind of match for it (NONE: none). */
  const kindBuffers: Uint8Array[] = []

  /** Each name's best kind of match for one query word, through the words of the names. */
  function kindsFor(word: string, slot: number, prefixOnly = false): Uint8Array {
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
    if (prefixOnly) return kinds
    // Words holding it further in: all of them, for up to 3 units; else those holding its rarest 3 units, checked
    let holders: Int32Array | undefined
    if (word.length <= 3) holders = grams.get(piece(word, 0, word.length))
    else
      for (let at = 0; at + 3 <= word.length; at++) {
        const ids = grams.get(piece(word, at, 3)) ?? EMPTY
        if (!holders || ids.length < holders.length) holders = ids
      }
    for (const w of holders ?? []) if ((w < lo || w >= hi) && (word.length <= 3 || words[w].includes(word))) mark(w, CONTAINS)
    // One typo: words sharing the word itself or one of its one-letter deletions as a key, then checked
    if (word.length >= TYPO_MIN)
      for (const key of deletions(word))
        for (const w of typoKeys.get(key) ?? []) if ((w < lo || w >= hi) && withinOneEdit(word, words[w])) mark(w, TYPO)
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

  /** How many rows these names have (a row with two of them counted twice). */
  const rowCount = (names: number[]) => {
    let count = 0
    for (const t of names) count += rowsOfText.starts[t + 1] - rowsOfText.starts[t]
    return count
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
    const test = rowTest(f)
    const passes = (p: number) => (test === null || test(rows[p])) && (rowKey < 0 || rowT[p] === rowKey)
    const query = searchText(q)
    const qWords = query ? query.split(' ') : []
    const exact = textId.get(query) ?? -1
    const lo = bound(0, texts.length, (i) => texts[i] < query)
    const hi = bound(lo, texts.length, (i) => texts[i].startsWith(query))
    const isPrefix = (t: number) => t >= lo && t < hi
    const page = { after: options.after ?? null, limit: options.limit }

    if (!query) return paged({ ...page, where: [rowKey >= 0 ? [rowKey] : null], classOf: (p) => (passes(p) ? 0 : -1) })

    if (options.match) {
      // fortnite-api's matchMethod: the base name as a whole
      const names =
        options.match === 'full'
          ? exact >= 0
            ? [exact]
            : []
          : options.match === 'starts'
            ? Array.from({ length: hi - lo }, (_, k) => lo + k)
            : textsWhere(options.match === 'ends' ? (text) => text.endsWith(query) : (text) => text.includes(query))
      const kind = nameRank.fill(NONE)
      for (const t of names) kind[t] = t === exact ? EXACT : isPrefix(t) ? PREFIX : texts[t].includes(` ${query}`) ? WORD_PREFIX : CONTAINS
      return paged({
        ...page,
        where: [EXACT, PREFIX, WORD_PREFIX, CONTAINS].map((k) => names.filter((t) => kind[t] === k)),
        classOf: (p) => (kind[baseT[p]] !== NONE && passes(p) ? 2 * kind[baseT[p]] + 1 - confirmed[p] : -1),
      })
    }

    // Beside other words, one of one or two letters is the start of a word ("golden f"), not any piece of one.
    const kinds = qWords.map((w, i) => kindsFor(w, i, qWords.length > 1 && w.length < SHORT))
    if (kinds.length === 1) {
      // One word: a row's rank is the best of its names' ranks, so each rank's rows come from its own names.
      const [k] = kinds
      const where: number[][] = Array.from({ length: RANKS }, () => [])
      for (let t = 0; t < texts.length; t++) {
        const kind = t === exact ? EXACT : isPrefix(t) ? PREFIX : k[t]
        nameRank[t] = kind === NONE ? NONE : rankOf(false, kind)
        rowRank[t] = kind === NONE ? NONE : rankOf(true, kind)
        if (kind !== NONE) (where[nameRank[t]].push(t), where[rowRank[t]].push(t))
      }
      return paged({
        ...page,
        where,
        classOf: (p) => {
          const b = nameRank[baseT[p]]
          const v = nameRank[variantT[p]]
          const r = rowRank[rowT[p]]
          const rank = b < v ? (b < r ? b : r) : v < r ? v : r
          return rank !== NONE && passes(p) ? 2 * rank + 1 - confirmed[p] : -1
        },
      })
    }

    // Several words: rows are found through the word with the fewest names, the others checked row by row.
    const namesOf = kinds.map((k) => {
      const ids: number[] = []
      for (let t = 0; t < k.length; t++) if (k[t] !== NONE) ids.push(t)
      return ids
    })
    return paged({
      ...page,
      where: [namesOf.reduce((best, ids) => (rowCount(ids) < rowCount(best) ? ids : best))],
      classOf: (p) => {
        const b = baseT[p]
        const v = variantT[p]
        const r = rowT[p]
        // Word by word, in any order: as good as the worst word's best match, in the names if every word is there
        let nameKind = EXACT
        let anyKind = EXACT
        for (let i = 0; i < kinds.length; i++) {
          const k = kinds[i]
          const inName = k[b] < k[v] ? k[b] : k[v]
          const anywhere = inName < k[r] ? inName : k[r]
          if (anywhere === NONE) return -1
          if (inName > nameKind) nameKind = inName
          if (anywhere > anyKind) anyKind = anywhere
        }
        if (!passes(p)) return -1
        // The query as a whole: a name that is it or starts with it
        let rank = nameKind !== NONE ? rankOf(false, nameKind) : rankOf(true, anyKind)
        if (rank > 0 && (b === exact || v === exact)) rank = 0
        else if (rank > 1 && (isPrefix(b) || isPrefix(v))) rank = 1
        else if (rank > 4 && r === exact) rank = 4
        else if (rank > 5 && isPrefix(r)) rank = 5
        return 2 * rank + 1 - confirmed[p]
      },
    })
  }

  const classOfRow = new Uint8Array(n)
  /** The first row in position order past the one a position names. */
  const firstAfter = (after: Position) => {
    const [, c, s, o] = after
    return bound(0, n, (p) => chapter[p] < c || (chapter[p] === c && (seasonNo[p] < s || (seasonNo[p] === s && ord[p] <= o))))
  }

  /**
   * The page of the best matches after `after`, by class (2 × rank, + 1 when unconfirmed) then position. `where`
   * names, per rank (or one list for every rank), the names whose rows may be of that rank: when they have few rows
   * those are gathered and sorted, else rows are walked in order, which ends soon since such matches are common (a
   * list of null: walk). Several words with many rows: every row is classed in one pass.
   */
  function paged(o: { where: (number[] | null)[]; classOf: (p: number) => number; after: Position | null; limit: number }) {
    const { where, classOf, after, limit } = o
    const from = after ? after[0] : 0
    const start = after ? firstAfter(after) : 0
    const out: number[] = []
    let next: Position | null = null
    /** Takes row p of class c; false once the page is full (one more row was found, so a next page exists). */
    const take = (p: number, c: number) => {
      if (out.length === limit) return false
      out.push(p)
      next = [c, chapter[p], seasonNo[p], ord[p]]
      return true
    }
    const done = (full: boolean) => ({ rows: out.map((p) => rows[p].row), next: full ? next : null })
    const shared = where.length === 1
    const classes = shared ? 2 * RANKS : 2 * where.length
    let gathered: Int32Array | null = null
    if (shared && where[0] && rowCount(where[0]) <= GATHER_MAX) gathered = rowsOf(where[0], () => true)
    else if (shared) {
      // Common rows (several words, or a match mode): the candidates (every row when they are most) classed in one
      // pass that counts each class, then a second pass takes the rows of the classes the page reaches, in order.
      const candidates = where[0] && rowCount(where[0]) <= n >> 1 ? rowsOf(where[0], () => true) : null
      const count = candidates ? candidates.length : n
      const counts = new Int32Array(classes)
      for (let k = 0; k < count; k++) {
        const p = candidates ? candidates[k] : k
        const c = classOf(p)
        classOfRow[p] = c > from || (c === from && p >= start) ? c : NONE
        if (classOfRow[p] !== NONE) counts[c]++
      }
      let last = from
      for (let total = counts[from]; last < classes - 1 && total <= limit;) total += counts[++last]
      const byClass: number[][] = Array.from({ length: last + 1 }, () => [])
      for (let k = 0, taken = 0; k < count && taken <= limit; k++) {
        const p = candidates ? candidates[k] : k
        const c = classOfRow[p]
        if (c <= last) (byClass[c].push(p), taken++)
      }
      for (let c = from; c <= last; c++) for (const p of byClass[c]) if (!take(p, c)) return done(true)
      return done(false)
    }
    for (let c = from; c < classes; c++) {
      const names = shared ? where[0] : where[c >> 1]
      const first = c === from ? start : 0
      if (names && !names.length) continue
      const rowsHere = gathered ?? (names && rowCount(names) <= GATHER_MAX ? rowsOf(names, () => true) : null)
      if (rowsHere) {
        for (const p of rowsHere) if (p >= first && classOf(p) === c && !take(p, c)) return done(true)
      } else for (let p = first; p < n; p++) if (classOf(p) === c && !take(p, c)) return done(true)
    }
    return done(false)
  }

  return { size: n, search }
}

export type SearchIndex<R> = ReturnType<typeof buildSearch<R>>
