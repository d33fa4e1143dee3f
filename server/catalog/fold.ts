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

/** Whether `a` becomes `b` by at most one insertion, deletion, substitution or swap of two neighbouring letters. */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  if (i === a.length && i === b.length) return true
  const rest = (x: number, y: number) => a.slice(x) === b.slice(y)
  if (a.length === b.length) return rest(i + 1, i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(i + 2, i + 2))
  return a.length > b.length ? rest(i + 1, i) : rest(i, i + 1)
}

/** Words this long or longer forgive one typo. */
export const TYPO_MIN = 5
