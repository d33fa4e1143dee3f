// The season catalog file format, written once in TypeBox; catalog/season.schema.json is generated from it.
import { Type as t } from '@sinclair/typebox'
import { CATALOG_STATUSES, GAME_MODES } from './tables.ts'
import '../formats.ts' // `format: date` means a real calendar date

export const SCHEMA_ID = 'https://scouting-units.example/catalog/season.schema.json'
export const STATUSES = CATALOG_STATUSES
export { GAME_MODES }

const gameMode = (description: string) =>
  t.Union(
    GAME_MODES.map((m) => t.Literal(m)),
    { description },
  )

export const Variant = t.Object(
  {
    variant: t.String({
      minLength: 1,
      description: 'Unique within its base sprite. Use the literal value Default when a sprite has a single form (exactly one variant).',
    }),
    status: t.Union(
      STATUSES.map((s) => t.Literal(s)),
      {
        description:
          'unreleased: known but not yet obtainable; released: obtainable and tradeable; hidden: dropped out of matching but retained in inventories (reversible).',
      },
    ),
    released_at: t.Optional(
      t.String({
        format: 'date',
        description: 'ISO 8601 date (YYYY-MM-DD). Required in practice once status is released; omitted while unreleased.',
      }),
    ),
    max_stack: t.Optional(
      t.Integer({
        minimum: 1,
        default: 1,
        description: 'Maximum copies a member can hold. A value above 1 lets the variant enter the give pool as a spare.',
      }),
    ),
    rarity_weight: t.Optional(
      t.Number({ exclusiveMinimum: 0, description: 'Strictly greater than 0. Display and analytics only; the matcher does not use it.' }),
    ),
    confirmed: t.Optional(
      t.Boolean({
        default: false,
        description:
          'Becomes true the first time a real member is recorded as owning the variant. Unconfirmed variants are deprioritised in autocomplete and excluded from the coverage metric.',
      }),
    ),
    notes: t.Optional(t.String()),
  },
  {
    additionalProperties: false,
    description: 'One form of a sprite.',
    // "Omitted while unreleased", for editors; validate.ts checks it with its own message. The explicit types keep
    // Ajv's strict mode quiet.
    if: { type: 'object', properties: { status: { const: 'unreleased' } }, required: ['status'] },
    then: { type: 'object', properties: { released_at: false } },
  },
)

export const Sprite = t.Object(
  {
    base_name: t.String({ minLength: 1, description: "Shared across the sprite's variants. Unique within a season." }),
    row_name: t.String({ minLength: 1, description: 'The collection row the sprite belongs to.' }),
    game_mode: t.Optional(gameMode('Overrides the season-level value for this sprite only.')),
    notes: t.Optional(t.String()),
    variants: t.Array(Variant, { minItems: 1, description: 'At least 1 item.' }),
  },
  {
    additionalProperties: false,
    description: 'A collectible item with one or more variants.',
    // "Use the literal value Default when a sprite has a single form", for editors; validate.ts checks it too.
    if: { type: 'object', properties: { variants: { type: 'array', maxItems: 1 } }, required: ['variants'] },
    then: {
      type: 'object',
      properties: { variants: { type: 'array', items: { type: 'object', properties: { variant: { const: 'Default' } } } } },
    },
  },
)

export const Season = t.Object(
  {
    $schema: t.Optional(t.String({ description: 'Where editors find this schema.' })),
    season: t.String({ pattern: '^c[0-9]+s[0-9]+$', description: 'Must equal the filename stem.' }),
    game_mode: gameMode('Default game mode for every sprite in the file. A sprite may override it.'),
    cross_mode_trading: t.Optional(
      t.Boolean({
        default: false,
        description:
          'Sprites from different game modes may be matched only when true. Leave false unless the policy is deliberately changed.',
      }),
    ),
    notes: t.Optional(t.String({ description: 'Free text. JSON has no comments, so anything that would be a comment goes here.' })),
    sprites: t.Array(Sprite, { minItems: 1, description: 'At least 1 item.' }),
  },
  { additionalProperties: false, $id: SCHEMA_ID, title: 'Season catalog file', description: 'One season of the collectibles catalog.' },
)

const isStringConst = (branch: unknown): branch is { const: string } =>
  typeof branch === 'object' && branch !== null && 'const' in branch && typeof branch.const === 'string'

/** The constants of a schema node that is a union of string constants (`anyOf` of `const`s); null for any other node. */
export function stringConsts(node: object): string[] | null {
  return 'anyOf' in node && Array.isArray(node.anyOf) && node.anyOf.every(isStringConst) ? node.anyOf.map((b) => b.const) : null
}

/** A union of string constants becomes `enum`, which editors offer as completions. */
function enumsFromConstUnions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(enumsFromConstUnions)
  if (!node || typeof node !== 'object') return node
  const consts = stringConsts(node)
  if (consts) {
    const { anyOf: _, ...rest } = node as { anyOf: unknown }
    return { ...rest, type: 'string', enum: consts }
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, enumsFromConstUnions(v)]))
}

/** The JSON Schema document written to catalog/season.schema.json. */
export function jsonSchema(): Record<string, unknown> {
  const { $id, ...rest } = enumsFromConstUnions(JSON.parse(JSON.stringify(Season))) as Record<string, unknown>
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $id, ...rest }
}

export const schemaFileText = () => JSON.stringify(jsonSchema(), null, 2) + '\n'
