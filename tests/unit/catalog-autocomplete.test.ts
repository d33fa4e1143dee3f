// The autocomplete index: folding, the order rules, and the same answers as reading every row, on any data.
import { describe, expect, it } from 'bun:test'
import fc from 'fast-check'
import { buildIndex, fold, type IndexedRow } from '../../server/catalog/autocomplete.ts'

const row = (base_name: string, variant: string, confirmed: boolean, row_name = 'Row', extra: object = {}) => ({
  base_name,
  row_name,
  variant,
  confirmed,
  ...extra,
})

/** The rules read straight off every row: what the index must agree with. */
function reference(rows: IndexedRow[], q: string, limit: number) {
  const f = fold(q)
  return rows
    .map((r) => {
      // A base-name match above a row-name one; within each, prefix before a match further in.
      const [base, name] = [fold(r.base_name), fold(r.row_name)]
      const matched = base.includes(f) ? base : name.includes(f) ? name : null
      const level = matched === null ? -1 : matched === base ? 0 : 1
      return { r, level, rank: matched?.startsWith(f) ? 0 : 1 }
    })
    .filter((s) => s.level >= 0)
    .sort(
      (a, b) =>
        a.level - b.level ||
        Number(b.r.confirmed) - Number(a.r.confirmed) ||
        a.rank - b.rank ||
        a.r.base_name.localeCompare(b.r.base_name) ||
        a.r.variant.localeCompare(b.r.variant),
    )
    .slice(0, limit)
    .map((s) => s.r)
}

const names = (rows: IndexedRow[], q: string, limit = 20) => {
  const index = buildIndex('c1s1', rows)
  return JSON.parse(new TextDecoder().decode(index.answer(fold(q), limit))).matches.map((m: IndexedRow) => `${m.base_name}/${m.variant}`)
}

describe('fold', () => {
  it('ignores case and accents, and spaces around and between words', () => {
    expect(fold('Nandú')).toBe('nandu')
    expect(fold('CAFÉ')).toBe('cafe')
    expect(fold('Cafe\u0301')).toBe('cafe')
    expect(fold('  Ember\u00a0  Fox ')).toBe('ember fox')
    expect(fold('ﬁre')).toBe('fire')
  })

  it('folds the letters Unicode does not decompose as search does, so "lodz" completes "Łódź"', () => {
    expect(fold('Łódź ØRE Straße')).toBe('lodz ore strasse')
    expect(names([row('Łódź Pigeon', 'Default', true), row('Lodge', 'Default', true)], 'lodz')).toEqual(['Łódź Pigeon/Default'])
  })
})

describe('autocomplete index', () => {
  const rows = [
    row('Nandú', 'Default', true, 'Birds'),
    row('Nandu', 'Default', false, 'Birds'),
    row('Café', 'Default', true, 'Kitchen'),
    row('Bear Café Latte', 'Default', true, 'Kitchen'),
    row('Cafeteria Cat', 'Golden', false, 'Kitchen'),
    row('Cafeteria Cat', 'Default', false, 'Kitchen'),
    row('Brown Cafe Mole', 'Shadow', false, 'Kitchen', { rarity_weight: 0.01 }),
    row('Brown Cafe Mole', 'Default', true, 'Kitchen', { rarity_weight: 9 }),
  ]

  it('matches ignoring case and accents, in the name and in the query', () => {
    expect(names(rows, 'nandu')).toEqual(['Nandú/Default', 'Nandu/Default'])
    expect(names(rows, 'NANDÚ')).toEqual(['Nandú/Default', 'Nandu/Default'])
    expect(names(rows, 'CAFE').slice(0, 1)).toEqual(['Café/Default'])
  })

  it('puts confirmed first, then prefix before inner matches, then base_name and variant; rarity_weight never counts', () => {
    expect(names(rows, 'cafe')).toEqual([
      'Café/Default',
      'Bear Café Latte/Default',
      'Brown Cafe Mole/Default',
      'Cafeteria Cat/Default',
      'Cafeteria Cat/Golden',
      'Brown Cafe Mole/Shadow',
    ])
  })

  it('matches row names too, and stops at the limit', () => {
    expect(names(rows, 'kit', 3)).toEqual(['Bear Café Latte/Default', 'Brown Cafe Mole/Default', 'Café/Default'])
    expect(names(rows, 'itch', 1)).toEqual(['Bear Café Latte/Default'])
    expect(names(rows, 'zzz')).toEqual([])
  })

  it('answers every row for an empty query, in order, as before', () => {
    expect(names(rows, '   ', 3)).toEqual(['Bear Café Latte/Default', 'Brown Cafe Mole/Default', 'Café/Default'])
  })

  it('answers the rows as given, with the season and the folded query', () => {
    const index = buildIndex('c1s1', rows)
    expect(JSON.parse(new TextDecoder().decode(index.answer('nandu', 5)))).toEqual({
      season: 'c1s1',
      q: 'nandu',
      matches: [rows[0], rows[1]],
    })
    expect(JSON.parse(new TextDecoder().decode(index.answer('nothing', 5)))).toEqual({ season: 'c1s1', q: 'nothing', matches: [] })
  })

  // Few letters, accents and case, so names share prefixes and pieces and both search paths are taken.
  const letter = fc.constantFrom('a', 'b', 'á', 'B', 'n', 'u', 'ú', ' ', 'é', 'E')
  const text = fc.array(letter, { minLength: 1, maxLength: 6 }).map((cs) => cs.join(''))
  const season = fc
    .uniqueArray(fc.record({ base: text, row: text, variants: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }) }), {
      selector: (s) => s.base,
      minLength: 1,
      maxLength: 40,
    })
    .map((sprites) => sprites.flatMap((s) => s.variants.map((confirmed, i) => row(s.base, i ? `V${i}` : 'Default', confirmed, s.row))))

  for (const gatherMax of [0, 3, 4096])
    it(`agrees with reading every row (sorting at most ${gatherMax} candidates, else walking in order)`, () =>
      fc.assert(
        fc.property(season, text, fc.integer({ min: 1, max: 10 }), (rows, q, limit) => {
          const index = buildIndex('c1s1', rows, { gatherMax })
          expect(index.search(fold(q), limit).length).toBeLessThanOrEqual(limit)
          const got = JSON.parse(new TextDecoder().decode(index.answer(fold(q), limit))).matches
          expect(got).toEqual(reference(rows, q, limit))
        }),
        { numRuns: 500 },
      ))
})

describe('what an index keeps', () => {
  it('lets go of the rows it was built from (it keeps their JSON, not the objects)', async () => {
    const refs: WeakRef<object>[] = []
    const build = () => {
      const rows = Array.from({ length: 2000 }, (_, i) => row(`Sprite ${i}`, i % 2 ? 'Golden' : 'Default', i % 3 > 0, `Row ${i % 40}`))
      for (const r of rows) refs.push(new WeakRef(r))
      return buildIndex('c1s1', rows)
    }
    const index = build()
    const alive = () => refs.filter((r) => r.deref() !== undefined).length
    // A WeakRef holds its target until the job that made it ends, and the stack is scanned conservatively: a few
    // collections on later turns free what nothing holds. Kept by the index, all 2,000 rows would stay.
    for (let turn = 0; turn < 5 && alive() >= 100; turn++) {
      await Bun.sleep(0)
      Bun.gc(true)
    }
    expect(alive()).toBeLessThan(100)
    expect(index.search('sprite 1', 1).length).toBe(1)
  })
})
