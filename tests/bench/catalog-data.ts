// Generated seasons for the catalog benchmark: a uniform one for check + flatten, and one with varied, partly
// accented names for autocomplete, with the queries a bot's users would type.
const MODES = ['br', 'og', 'reload', 'festival', 'racing', 'blocks']
const STATUSES = ['unreleased', 'released', 'hidden']

/** `variants` variants, five per sprite, named `Sprite N` in rows `Row N`. */
export function generatedSeason(variants: number, season = 'c9s9') {
  const sprites = []
  for (let i = 0; i < variants / 5; i++)
    sprites.push({
      base_name: `Sprite ${i}`,
      row_name: `Row ${i % 200}`,
      ...(i % 7 === 0 ? { game_mode: MODES[i % MODES.length] } : {}),
      variants: Array.from({ length: 5 }, (_, j) => ({
        variant: j === 0 ? 'Default' : `Style ${j}`,
        status: STATUSES[(i + j) % 3],
        ...((i + j) % 3 === 1 ? { released_at: '2026-06-05' } : {}),
        max_stack: 1 + (j % 3),
        rarity_weight: 0.1 + j / 10,
        confirmed: j % 2 === 0,
      })),
    })
  return { season, game_mode: 'br', sprites }
}

/** A small seeded generator (mulberry32), so every run names the same sprites and asks the same questions. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}

const SYLLABLES = 'ka lo mi ne ru ta vi zo bé ñu qui dra fen gor hal jú ko lum mar nó pel ris sol tûr ul vor wen xi yar zeph'.split(' ')
const WORDS = 'Fox Owl Koi Bat Mole Cat Gecko Turtle Golem Beetle Drake Crane Hare Lynx Wren Ibis Yak Émeu Nandú Café'.split(' ')
const STYLES = ['Default', 'Golden', 'Shadow', 'Frost', 'Neon']
const capital = (s: string) => s[0].toUpperCase() + s.slice(1)

/** `variants` variants, five per sprite, with names like "Bémar Ñuko Crane" in 200 rows. */
export function namedSeason(variants: number, season = 'c9s8', seed = 42) {
  const next = random(seed)
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]
  const word = (n: number) => capital(Array.from({ length: n }, () => pick(SYLLABLES)).join(''))
  const rows = Array.from({ length: 200 }, (_, i) => `${word(2)} ${WORDS[i % WORDS.length]}`)
  const seen = new Set<string>()
  const sprites = []
  while (sprites.length < variants / 5) {
    const base = `${word(2 + Math.floor(next() * 2))} ${word(2)} ${pick(WORDS)}`
    if (seen.has(base)) continue
    seen.add(base)
    const i: number = sprites.length
    sprites.push({
      base_name: base,
      row_name: rows[i % rows.length],
      variants: STYLES.map((variant, j) => ({
        variant,
        status: STATUSES[(i + j) % 3],
        ...((i + j) % 3 === 1 ? { released_at: '2026-06-05' } : {}),
        rarity_weight: 0.1 + j / 10,
        confirmed: (i + j) % 4 !== 0,
      })),
    })
  }
  return { season, game_mode: 'br', sprites }
}

/** `count` queries as typed: prefixes of names, pieces from inside them, other cases and accents, and misses. */
export function autocompleteQueries(file: ReturnType<typeof namedSeason>, count: number): string[] {
  const next = random(7)
  const names = file.sprites.map((s) => s.base_name)
  const rowNames = [...new Set(file.sprites.map((s) => s.row_name))]
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]
  const plain = (s: string) => s.normalize('NFKD').replace(/\p{Mn}/gu, '')
  const queries: string[] = []
  while (queries.length < count) {
    const kind = next()
    const name = pick(names)
    const length = 1 + Math.floor(next() * 8)
    if (kind < 0.35) queries.push(name.slice(0, length).toLowerCase())
    else if (kind < 0.55) {
      const start = 1 + Math.floor(next() * (name.length - 3))
      queries.push(name.slice(start, start + 2 + Math.floor(next() * 5)))
    } else if (kind < 0.7) queries.push(pick(rowNames).slice(0, length))
    else if (kind < 0.8) queries.push(plain(name.slice(0, length + 2)).toUpperCase())
    else if (kind < 0.9)
      queries.push(Array.from({ length: 3 + Math.floor(next() * 3) }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join(''))
    else queries.push(pick(SYLLABLES))
  }
  return queries
}

/**
 * `count` search queries: the autocomplete ones (prefixes, pieces, other cases and accents, misses), and as many
 * again of two words of a name in the other order and of a word with one typo (a letter dropped or two swapped).
 */
export function searchQueries(file: ReturnType<typeof namedSeason>, count: number): string[] {
  const next = random(11)
  const names = file.sprites.map((s) => s.base_name)
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]
  const queries = autocompleteQueries(file, Math.ceil(count / 2))
  while (queries.length < count) {
    const words = pick(names).split(' ')
    if (next() < 0.5) queries.push(`${words[words.length - 1]} ${words[0]}`)
    else {
      const word = words.reduce((a, b) => (b.length > a.length ? b : a))
      const at = 1 + Math.floor(next() * (word.length - 2))
      queries.push(next() < 0.5 ? word.slice(0, at) + word.slice(at + 1) : word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2))
    }
  }
  return queries
}
