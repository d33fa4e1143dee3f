// How catalog search compares text: case, accents and the letters Unicode does not decompose folded away, names cut
// into words, and "one typo" as an edit distance of at most one.

/** Letters NFKD leaves whole, spelt as a reader without them would type them (after lower-casing). */
const LETTERS: Record<string, string> = { ø: 'o', ł: 'l', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ð: 'd', þ: 'th', ħ: 'h', ı: 'i', ŧ: 't' }
const UNDECOMPOSED = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g')

/** Lower case, marks removed (NFKD) and the letters above spelt out: "Łódź" → "lodz", "Straße" → "strasse". */
export const foldName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(UNDECOMPOSED, (c) => LETTERS[c])

/** The folded words of a text: runs of letters and digits. */
export const wordsOf = (text: string) =>
  foldName(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)

/** A text as search compares it whole: its folded words joined by single spaces. */
export const searchText = (text: string) => wordsOf(text).join(' ')

/**
 * Whether `a` becomes `b` (its first `bLength` units: what was typed so far of a longer word) by at most one
 * insertion, deletion, substitution or swap of two neighbouring letters. Compares in place: search calls it for
 * many words per query.
 */
export function withinOneEdit(a: string, b: string, bLength = b.length): boolean {
  const al = a.length
  const bl = Math.min(bLength, b.length)
  if (al - bl > 1 || bl - al > 1) return false
  let i = 0
  while (i < al && i < bl && a.charCodeAt(i) === b.charCodeAt(i)) i++
  if (i === al && i === bl) return true
  /** Whether a from x and b from y are the same to their ends. */
  const rest = (x: number, y: number) => {
    if (al - x !== bl - y) return false
    for (; x < al; x++, y++) if (a.charCodeAt(x) !== b.charCodeAt(y)) return false
    return true
  }
  if (al === bl) return rest(i + 1, i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(i + 2, i + 2))
  return al > bl ? rest(i + 1, i) : rest(i, i + 1)
}

/** Words this long or longer forgive one typo. */
export const TYPO_MIN = 5
