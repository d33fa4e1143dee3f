// The season catalog JSON Schema: the checked-in file matches the TypeBox source and says what the format document says.
import { describe, expect, it } from 'bun:test'
import path from 'node:path'
import { jsonSchema, schemaFileText } from '../../server/catalog/schema.ts'
import { validateSeason } from '../../server/catalog/validate.ts'

const catalogDir = path.join(import.meta.dir, '..', '..', 'catalog')

const schema = jsonSchema() as any
const season = schema
const sprite = schema.properties.sprites.items
const variant = sprite.properties.variants.items

describe('checked-in catalog/season.schema.json', () => {
  it('equals schemaFileText() byte for byte (regenerate with `bun server/cli.ts catalog-schema` after changing schema.ts)', async () => {
    const checkedIn = await Bun.file(path.join(catalogDir, 'season.schema.json')).text()
    expect(checkedIn).toBe(schemaFileText())
  })

  it('is the generated schema written as two-space JSON with a final newline', () => {
    const text = schemaFileText()
    expect(text.endsWith('}\n')).toBe(true)
    expect(JSON.parse(text)).toEqual(schema)
    expect(text).toBe(JSON.stringify(schema, null, 2) + '\n')
  })
})

describe('generated schema', () => {
  it('declares JSON Schema draft 2020-12 and an $id', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(typeof schema.$id).toBe('string')
    expect(schema.$id.length).toBeGreaterThan(0)
    expect(Object.keys(schema).slice(0, 2)).toEqual(['$schema', '$id'])
  })

  it('rejects unknown properties at the season, sprite and variant levels (additionalProperties false)', () => {
    for (const level of [season, sprite, variant]) {
      expect(level.type).toBe('object')
      expect(level.additionalProperties).toBe(false)
    }
  })

  it('lists exactly the documented properties at each level', () => {
    expect(Object.keys(season.properties).sort()).toEqual(['$schema', 'cross_mode_trading', 'game_mode', 'notes', 'season', 'sprites'])
    expect(Object.keys(sprite.properties).sort()).toEqual(['base_name', 'game_mode', 'notes', 'row_name', 'variants'])
    expect(Object.keys(variant.properties).sort()).toEqual([
      'confirmed',
      'max_stack',
      'notes',
      'rarity_weight',
      'released_at',
      'status',
      'variant',
    ])
  })

  it('requires season, game_mode, sprites; base_name, row_name, variants; variant, status', () => {
    expect([...season.required].sort()).toEqual(['game_mode', 'season', 'sprites'])
    expect([...sprite.required].sort()).toEqual(['base_name', 'row_name', 'variants'])
    expect([...variant.required].sort()).toEqual(['status', 'variant'])
  })

  it('gives season the pattern ^c[0-9]+s[0-9]+$', () => {
    expect(season.properties.season.type).toBe('string')
    expect(season.properties.season.pattern).toBe('^c[0-9]+s[0-9]+$')
  })

  it('uses the exact game-mode enumeration at season and sprite level', () => {
    const modes = ['br', 'og', 'reload', 'festival', 'racing', 'blocks']
    for (const gm of [season.properties.game_mode, sprite.properties.game_mode]) {
      expect(gm.type).toBe('string')
      expect(gm.enum).toEqual(modes)
      expect(gm.anyOf).toBeUndefined()
    }
  })

  it('uses the exact status enumeration', () => {
    expect(variant.properties.status.type).toBe('string')
    expect(variant.properties.status.enum).toEqual(['unreleased', 'released', 'hidden'])
    expect(variant.properties.status.anyOf).toBeUndefined()
  })

  it('requires at least 1 item in sprites and variants', () => {
    expect(season.properties.sprites.type).toBe('array')
    expect(season.properties.sprites.minItems).toBe(1)
    expect(sprite.properties.variants.type).toBe('array')
    expect(sprite.properties.variants.minItems).toBe(1)
  })

  it('gives base_name, row_name and variant minLength 1', () => {
    expect(sprite.properties.base_name).toMatchObject({ type: 'string', minLength: 1 })
    expect(sprite.properties.row_name).toMatchObject({ type: 'string', minLength: 1 })
    expect(variant.properties.variant).toMatchObject({ type: 'string', minLength: 1 })
  })

  it('makes max_stack an integer with minimum 1 and default 1', () => {
    expect(variant.properties.max_stack).toMatchObject({ type: 'integer', minimum: 1, default: 1 })
  })

  it('makes rarity_weight a number with exclusiveMinimum 0', () => {
    expect(variant.properties.rarity_weight).toMatchObject({ type: 'number', exclusiveMinimum: 0 })
    expect(variant.properties.rarity_weight.minimum).toBeUndefined()
  })

  it('makes released_at a string with format date', () => {
    expect(variant.properties.released_at).toMatchObject({ type: 'string', format: 'date' })
  })

  it('makes confirmed and cross_mode_trading booleans defaulting to false', () => {
    expect(variant.properties.confirmed).toMatchObject({ type: 'boolean', default: false })
    expect(season.properties.cross_mode_trading).toMatchObject({ type: 'boolean', default: false })
  })

  it('makes notes a string at every level', () => {
    for (const level of [season, sprite, variant]) expect(level.properties.notes.type).toBe('string')
  })

  it('has descriptions on the three objects and on every documented field', () => {
    for (const level of [season, sprite, variant]) expect(level.description.length).toBeGreaterThan(0)
    const described: [string, any][] = [
      ...['season', 'game_mode', 'cross_mode_trading', 'notes', 'sprites'].map((k): [string, any] => [`season.${k}`, season.properties[k]]),
      ...['base_name', 'row_name', 'game_mode', 'variants'].map((k): [string, any] => [`sprite.${k}`, sprite.properties[k]]),
      ...['variant', 'status', 'released_at', 'max_stack', 'rarity_weight', 'confirmed'].map((k): [string, any] => [
        `variant.${k}`,
        variant.properties[k],
      ]),
    ]
    for (const [name, property] of described) {
      expect(typeof property.description, name).toBe('string')
      expect(property.description.length, name).toBeGreaterThan(0)
    }
  })
})

describe('sample catalog files', () => {
  for (const name of ['c6s3.json', 'c6s4.json'])
    it(`${name} passes with no errors`, async () => {
      const { problems, season } = validateSeason(name, await Bun.file(path.join(catalogDir, name)).text())
      expect(problems.filter((p) => p.level === 'error')).toEqual([])
      expect(season).toBeDefined()
    })
})
