// fast-check arbitraries from the routes' own TypeBox schemas: values that fit, and values that do not.
import fc from 'fast-check'

type Schema = Record<string, any>

/** Values that fit the schema (strings and arrays kept short, so requests stay small). */
export function fitting(schema: Schema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const)
  // Elysia's numeric and boolean types are unions with a string form for query strings; bodies use the real type.
  if (schema.anyOf)
    return fc.oneof(...schema.anyOf.filter((b: Schema) => !['integer', 'numeric', 'boolean'].includes(b.format)).map(fitting))
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'email')
        return fc
          .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.stringMatching(/^[a-z]{1,12}$/))
          .map(([user, host]) => `${user}@${host}.org`)
      if (schema.format === 'date')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10))
      if (schema.format === 'date-time')
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString())
      const length = { minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }
      // Free text carries the control-character rule as a pattern: any short string without them fits.
      if (schema.pattern?.startsWith('^[^\\u0000')) return fc.string(length).filter((s) => new RegExp(schema.pattern).test(s))
      if (schema.pattern)
        return fc
          .stringMatching(new RegExp(schema.pattern))
          .filter((s) => s.length >= length.minLength && s.length <= (schema.maxLength ?? 200))
      return fc.string(length)
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 })
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const size = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) }
      const item = fitting(schema.items ?? {})
      return schema.uniqueItems ? fc.uniqueArray(item, { ...size, selector: (v) => JSON.stringify(v) }) : fc.array(item, size)
    }
    case 'object': {
      const props = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, fitting(v as Schema)]))
      return fc.record(props, { requiredKeys: schema.required ?? [] })
    }
  }
  return fc.anything()
}

const deep = fc.integer({ min: 50, max: 2000 }).map((n) => {
  let v: unknown = 'x'
  for (let i = 0; i < n; i++) v = { a: v }
  return v
})
const awkward = fc.oneof(
  fc.constant(null),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom("'; DROP TABLE people; --", '" OR 1=1 --', '%00', '../../etc/passwd', '\u0000', '𝕊𝕔𝕠𝕦𝕥 🏕️', 'a'.repeat(100_000)),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.anything(), { maxLength: 3 }),
  deep,
)

/** Bodies that mostly do not fit: a field dropped, a field of the wrong type, an extra field, or nothing like it at all. */
export function mutated(schema: Schema): fc.Arbitrary<unknown> {
  const valid = fitting(schema)
  const asObject = valid.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v))
  return fc.oneof(
    valid,
    fc.tuple(asObject, fc.nat()).map(([v, i]) => {
      const keys = Object.keys(v)
      if (!keys.length) return v
      const { [keys[i % keys.length]]: _, ...rest } = v
      return rest
    }),
    fc.tuple(asObject, fc.nat(), awkward).map(([v, i, bad]) => {
      const keys = Object.keys(v)
      return keys.length ? { ...v, [keys[i % keys.length]]: bad } : v
    }),
    fc.tuple(asObject, fc.string({ minLength: 1, maxLength: 12 }), awkward).map(([v, k, bad]) => ({ ...v, [`x_${k}`]: bad })),
    awkward,
  )
}
