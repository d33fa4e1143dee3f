// Catalog search in memory: folding, words in any order, one typo, the ranking, match modes, filters and cursors.
import { describe, expect, it } from 'bun:test'
import { foldName, searchText, withinOneEdit } from '../../server/catalog/fold.ts'
import { buildSearch, type SearchRow } from '../../server/catalog/search.ts'

describe('foldName', () => {
  it('folds case, accents and the letters Unicode does not decompose', () => {
    expect(foldName('Łódź')).toBe('lodz')
    expect(foldName('Straße STRASSE')).toBe('strasse strasse')
    expect(foldName('Æsir Œuvre Øre Đorđe Þór Nandú')).toBe('aesir oeuvre ore dorde thor nandu')
    expect(searchText('  Café--Owl  (Latte) ')).toBe('cafe owl latte')
  })
})

describe('withinOneEdit', () => {
  it('allows one insertion, deletion, substitution or swap, and no more', () => {
    for (const [a, b] of [
      ['falcn', 'falcon'],
      ['falcon', 'falcn'],
      ['falcan', 'falcon'],
      ['flacon', 'falcon'],
      ['falcon', 'falcon'],
    ])
      expect(withinOneEdit(a, b)).toBe(true)
    for (const [a, b] of [
      ['flcn', 'falcon'],
      ['fclaon', 'falcon'],
      ['falcons', 'falcn'],
      ['abcde', 'edcba'],
    ])
      expect(withinOneEdit(a, b)).toBe(false)
  })
})

type R = { name: string }
let ord = 0
const row = (base_name: string, row_name: string, variant = 'Default', more: Partial<SearchRow<R>> = {}): SearchRow<R> => ({
  season: 'c6s3',
  chapter: 6,
  season_no: 3,
  ord: ord++,
  base_name,
  row_name,
  variant,
  status: 'released',
  game_mode: 'br',
  confirmed: true,
  ...more,
  row: { name: `${more.season ?? 'c6s3'} ${base_name} ${variant}` },
})

const index = buildSearch<R>([
  row('Fox Friend', 'Forest'), // 0: name prefix of "fox"
  row('Silver Fox', 'Forest'), // 1: a word of the name starts with "fox"
  row('Foxglove', 'Garden'), // 2: name prefix
  row('Fox', 'Forest', 'Golden'), // 3: name is "fox"
  row('Fox', 'Forest', 'Plain', { confirmed: false }), // 4: name is "fox", unconfirmed
  row('Redfox', 'Forest'), // 5: inside a name
  row('Kit', 'Fox Den'), // 6: the row name starts with "fox"
  row('Falcon', 'Birds'), // 7
  row('Łódź Pigeon', 'Birds'), // 8
  row('Nandú', 'Birds', 'Default', { season: 'c10s1', chapter: 10, season_no: 1, ord: 0 }), // 9
  row('Falcon', 'Birds', 'Default', { season: 'c10s1', chapter: 10, season_no: 1, ord: 1 }), // 10
])
const names = (q: string, options: Partial<Parameters<typeof index.search>[1]> = {}) =>
  index.search(q, { limit: 100, ...options }).rows.map((r) => r.name)

describe('buildSearch', () => {
  it('ranks names that are the query, start with it, have a word starting with it, hold it; then row names; confirmed first', () => {
    expect(names('fox')).toEqual([
      'c6s3 Fox Golden',
      'c6s3 Fox Plain',
      'c6s3 Fox Friend Default',
      'c6s3 Foxglove Default',
      'c6s3 Silver Fox Default',
      'c6s3 Redfox Default',
      'c6s3 Kit Default',
    ])
  })

  it('folds ø, ł, æ, ß… and accents, in the query and the names', () => {
    expect(names('lodz')).toEqual(['c6s3 Łódź Pigeon Default'])
    expect(names('ŁÓDŹ pigeon')).toEqual(['c6s3 Łódź Pigeon Default'])
    expect(names('nandu')).toEqual(['c10s1 Nandú Default'])
  })

  it('matches several words across base, row and variant names in any order', () => {
    expect(names('golden fox')).toEqual(['c6s3 Fox Golden'])
    expect(names('forest silver')).toEqual(['c6s3 Silver Fox Default'])
    expect(names('den kit')).toEqual(['c6s3 Kit Default'])
    expect(names('golden badger')).toEqual([])
    // beside other words, one of one or two letters is the start of a word
    expect(names('golden f')).toEqual(['c6s3 Fox Golden'])
    expect(names('golden ox')).toEqual([])
  })

  it('forgives one typo in words of five letters or more, ranked after every real match', () => {
    expect(names('falcn')).toEqual(['c6s3 Falcon Default', 'c10s1 Falcon Default'])
    expect(names('flacon')).toEqual(['c6s3 Falcon Default', 'c10s1 Falcon Default'])
    expect(names('fxo')).toEqual([]) // too short to forgive
    expect(names('flcn')).toEqual([])
  })

  it('answers match=full, starts and contains on the base name', () => {
    expect(names('fox', { match: 'full' })).toEqual(['c6s3 Fox Golden', 'c6s3 Fox Plain'])
    expect(names('fox', { match: 'starts' })).toEqual([
      'c6s3 Fox Golden',
      'c6s3 Fox Plain',
      'c6s3 Fox Friend Default',
      'c6s3 Foxglove Default',
    ])
    expect(names('fox', { match: 'contains' })).toEqual([
      'c6s3 Fox Golden',
      'c6s3 Fox Plain',
      'c6s3 Fox Friend Default',
      'c6s3 Foxglove Default',
      'c6s3 Silver Fox Default',
      'c6s3 Redfox Default',
    ])
  })

  it('filters by season and by row name ignoring case and accents; without a query in season and file order', () => {
    expect(names('falcon', { filters: { season: ['c10s1'] } })).toEqual(['c10s1 Falcon Default'])
    expect(names('', { filters: { row_name: 'BIRDS' } })).toEqual([
      'c6s3 Falcon Default',
      'c6s3 Łódź Pigeon Default',
      'c10s1 Nandú Default',
      'c10s1 Falcon Default',
    ])
    expect(names('', { filters: { row_name: 'Nowhere' } })).toEqual([])
  })

  it('pages from a position, and the same content built again gives the same positions', () => {
    const first = index.search('fox', { limit: 3 })
    expect(first.next).not.toBeNull()
    const rest = index.search('fox', { limit: 100, after: first.next })
    expect([...first.rows, ...rest.rows].map((r) => r.name)).toEqual(names('fox'))
    expect(rest.next).toBeNull()
    const again = buildSearch<R>([...Array(11)].map((_, i) => row(`Filler ${i}`, 'Zzz')))
    expect(again.search('filler', { limit: 2 }).next).toEqual(again.search('filler', { limit: 2 }).next)
  })
})
