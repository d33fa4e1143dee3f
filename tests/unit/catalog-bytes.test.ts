// A season file is read as bytes: a byte-order mark, invalid UTF-8 and a key given twice are refused with their position.
import { afterAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { checkCatalog } from '../../server/catalog/check.ts'
import { duplicateKeys } from '../../server/catalog/duplicate-keys.ts'
import { invalidUtf8Offset } from '../../server/catalog/json-text.ts'
import { validateSeason } from '../../server/catalog/validate.ts'

const root = path.join(import.meta.dir, '..', '..')
const encode = (text: string) => new TextEncoder().encode(text)
const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...encode(p)] : p)))

// Line 4 holds the one variant; its text starts at column 5.
const SEASON = `{
  "season": "c1s1", "game_mode": "br",
  "sprites": [{ "base_name": "Ember Fox", "row_name": "Forest Friends", "variants": [
    { "variant": "Default", "status": "unreleased" }
  ] }]
}
`

const temps: string[] = []
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})
/** checkCatalog's lines for a folder holding c1s1.json with these bytes and the generated schema. */
async function checkBytes(content: Uint8Array): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-bytes-'))
  temps.push(dir)
  copyFileSync(path.join(root, 'catalog', 'season.schema.json'), path.join(dir, 'season.schema.json'))
  writeFileSync(path.join(dir, 'c1s1.json'), content)
  const { errors, warnings } = await checkCatalog(dir)
  const prefix = `${path.relative(process.cwd(), dir)}/c1s1.json: `
  return [...errors, ...warnings].map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
}

describe('byte-order mark', () => {
  it('is refused at the start of a UTF-8 file', async () => {
    expect(await checkBytes(bytes([0xef, 0xbb, 0xbf], SEASON))).toEqual([
      '/: starts with a UTF-8 byte-order mark (bytes ef bb bf at line 1, column 1); save the file as UTF-8 without one',
    ])
  })

  it('is refused in text already decoded, and a UTF-16 one is named', async () => {
    expect(validateSeason('c1s1.json', `\ufeff${SEASON}`).problems.map((p) => p.message)).toEqual([
      'starts with a byte-order mark (U+FEFF at line 1, column 1); save the file without one',
    ])
    expect(await checkBytes(bytes([0xff, 0xfe], '{}'))).toEqual([
      '/: starts with a UTF-16 byte-order mark (bytes ff fe); save the file as UTF-8 without one',
    ])
  })

  it('a clean file passes', async () => {
    expect(await checkBytes(encode(SEASON))).toEqual([])
  })
})

describe('invalid UTF-8', () => {
  it('is refused with its line, column and byte offset instead of becoming U+FFFD', async () => {
    const content = encode(SEASON.replace('Forest Friends', 'Forêt \u0000'))
    // "Forêt " then a lone continuation byte where the NUL was.
    content[content.indexOf(0)] = 0x80
    const offset = content.indexOf(0x80)
    expect(await checkBytes(content)).toEqual([
      `/: not valid UTF-8 at line 3, column 62 (byte offset ${offset}: 80 22 2c 20); save the file as UTF-8`,
    ])
  })

  it('finds the same first bad byte as the strict decoder refuses', () => {
    const cases: [number[], number][] = [
      [[0x41, 0xc3, 0xa9, 0x42], -1],
      [[0x41, 0xc0, 0xaf], 1], // overlong
      [[0xe0, 0x80, 0xaf], 0], // overlong, three bytes
      [[0xed, 0xa0, 0x80], 0], // a surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
      [[0x41, 0xe2, 0x82], 1], // cut short at the end
      [[0xe2, 0x82, 0x41], 0], // cut short before ASCII
      [[0xf0, 0x9f, 0x98, 0x80, 0xff], 4],
    ]
    for (const [input, expected] of cases) expect(invalidUtf8Offset(new Uint8Array(input)), String(input)).toBe(expected)
    const strict = new TextDecoder('utf-8', { fatal: true })
    let seed = 17
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 256
    for (let n = 0; n < 3000; n++) {
      const sample = new Uint8Array(Array.from({ length: 1 + (n % 9) }, () => (random() < 128 ? random() | 0x80 : random())))
      let valid = true
      try {
        strict.decode(sample)
      } catch {
        valid = false
      }
      expect(invalidUtf8Offset(sample) === -1, String([...sample])).toBe(valid)
    }
  })
})

describe('duplicate keys', () => {
  it('are refused with the object pointer and both positions', async () => {
    const twice = SEASON.replace('"status": "unreleased"', '"status": "released", "status": "unreleased"')
    expect(await checkBytes(encode(twice))).toEqual([
      '/sprites/0/variants/0: has the key "status" twice (line 4, column 29 and line 4, column 51); keys must be unique',
    ])
    const atRoot = SEASON.replace('"game_mode": "br"', '"game_mode": "br", "season": "c1s1"')
    expect(await checkBytes(encode(atRoot))).toEqual([
      '/: has the key "season" twice (line 2, column 3 and line 2, column 40); keys must be unique',
    ])
  })

  it('compare keys after unescaping, and are only duplicates within one object', () => {
    expect(duplicateKeys('{"ab": 1, "a\\u0062": 2}')).toEqual([
      { object: '', key: 'ab', first: { line: 1, column: 2 }, again: { line: 1, column: 11 } },
    ])
    expect(duplicateKeys('{"a": {"x": 1}, "b": {"x": "a\\"x"}, "c": [{"x": 1}, {"x": 2}]}')).toEqual([])
    expect(duplicateKeys('{"a/b": [0, {"k~": {"y": 1, "y": 2}}]}').map((d) => d.object)).toEqual(['/a~1b/1/k~0'])
  })

  it('still let the schema report the other problems', () => {
    const text = SEASON.replace('"status": "unreleased"', '"status": "unreleased", "status": "gone"')
    expect(validateSeason('c1s1.json', text).problems.map((p) => `${p.pointer}: ${p.message}`)).toEqual([
      '/sprites/0/variants/0: has the key "status" twice (line 4, column 29 and line 4, column 53); keys must be unique',
      '/sprites/0/variants/0/status: must be one of unreleased, released, hidden',
    ])
  })
})
