// Request validation with TypeBox's compiler, and refusals in plain words: "units.0.unit_id: must be a whole
// number", never "Expected union value". A schema may carry its own message (`withMessage`), kept off the
// published document.
import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors'
import { type FieldProblem, HttpError } from '../errors.ts'

const MESSAGE = Symbol('message')

/** The schema, answering `message` when a value does not fit it (patterns and formats need words). */
export function withMessage<S extends TSchema>(schema: S, message: string): S {
  return Object.assign(schema, { [MESSAGE]: message })
}

const messageOf = (schema: TSchema): string | undefined => (schema as { [MESSAGE]?: string })[MESSAGE]

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
}

/** "a, b or c" */
const either = (values: unknown[]) => {
  const shown = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
  return shown.length < 2 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`
}

const literals = (schema: TSchema): unknown[] | null =>
  schema.anyOf?.every((s: TSchema) => 'const' in s) ? schema.anyOf.map((s: TSchema) => s.const) : null

/** What a value must be to fit `schema`, in words. */
function expectation(schema: TSchema): string {
  const own = messageOf(schema)
  if (own) return own
  const options = literals(schema)
  if (options) return `must be ${either(options)}`
  if ('const' in schema) return `must be ${either([schema.const])}`
  const types = schema.anyOf ? schema.anyOf.map((s: TSchema) => s.type) : [schema.type]
  return `must be ${either(types.map((t: string) => TYPE_WORDS[t] ?? t))}`
}

/** One error of TypeBox's, in words. */
function words(error: ValueError): string {
  const { schema } = error
  const own = messageOf(schema)
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required'
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a field of this request'
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`
    case ValueErrorType.StringPattern:
    case ValueErrorType.StringFormat:
      return (
        own ??
        (schema.format ? `must be ${schema.format === 'email' ? 'an email address' : `a ${schema.format}`}` : 'is not in the expected form')
      )
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return own ?? `must be at least ${schema.minimum}`
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return own ?? `must be at most ${schema.maximum}`
    case ValueErrorType.NumberExclusiveMinimum:
      return own ?? `must be more than ${schema.exclusiveMinimum}`
    case ValueErrorType.ArrayMinItems:
      return own ?? (schema.minItems === 1 ? 'must not be an empty list' : `must list at least ${schema.minItems}`)
    case ValueErrorType.ArrayMaxItems:
      return own ?? `must list at most ${schema.maxItems}`
    case ValueErrorType.ArrayUniqueItems:
      return own ?? 'must not list anything twice'
    default:
      return expectation(schema)
  }
}

/** `/units/0/unit_id` → `units.0.unit_id`; the root is the request part itself. */
const fieldOf = (path: string, where: string) =>
  path ? path.slice(1).replaceAll('/', '.').replaceAll('~1', '/').replaceAll('~0', '~') : where

/** A stable code for each kind of problem TypeBox reports. */
function codeOf(error: ValueError): string {
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'required'
    case ValueErrorType.ObjectAdditionalProperties:
      return 'unknown_field'
    case ValueErrorType.StringMinLength:
    case ValueErrorType.ArrayMinItems:
      return 'too_short'
    case ValueErrorType.StringMaxLength:
    case ValueErrorType.ArrayMaxItems:
      return 'too_long'
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberExclusiveMinimum:
      return 'too_small'
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return 'too_large'
    case ValueErrorType.ArrayUniqueItems:
      return 'duplicate'
    case ValueErrorType.StringPattern:
    case ValueErrorType.StringFormat:
      return 'invalid_format'
    default:
      return literals(error.schema) || 'const' in error.schema ? 'not_allowed' : 'wrong_type'
  }
}

/**
 * One problem in words: inside a nullable union, the error of the branch the value was meant for
 * (`email: must be an email address` rather than "must be text or null").
 */
function explain(root: TSchema, first: ValueError, where: string): FieldProblem {
  let error = first
  if (error.type === ValueErrorType.Union && error.value !== null && !literals(error.schema)) {
    const meant = (error.schema.anyOf as TSchema[]).filter((s) => s.type !== 'null')
    const inner = meant.length === 1 ? TypeCompiler.Compile(meant[0]).Errors(error.value).First() : undefined
    if (inner) error = { ...inner, path: error.path + inner.path }
  }
  // An item or field without words of its own is explained by the nearest enclosing schema that has them
  // ("scopes: must be one or more capability names" rather than a list of every capability).
  const enclosing = messageOf(error.schema) ? null : enclosingMessage(root, error.path)
  const field = fieldOf(enclosing?.path ?? error.path, where)
  const shown = field.length > 80 ? `${field.slice(0, 80)}…` : field
  return { field, code: enclosing ? 'invalid' : codeOf(error), detail: `${shown}: ${enclosing?.message ?? words(error)}` }
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>()
const compile = (schema: TSchema) => compiled.get(schema) ?? compiled.set(schema, TypeCompiler.Compile(schema)).get(schema)!

/**
 * The branch of a body that takes one of several shapes (a household from fields, or from `lead_id`) the value was
 * meant for: the one that knows most of its fields, then the first whose required fields it has.
 */
function meantShape(union: TSchema, value: unknown): TSchema | null {
  const shapes = (union.anyOf ?? []) as TSchema[]
  if (shapes.length < 2 || !shapes.every((s) => s.type === 'object') || !value || typeof value !== 'object') return null
  const keys = Object.keys(value)
  const known = (s: TSchema) => keys.filter((k) => k in (s.properties ?? {})).length
  const complete = (s: TSchema) => ((s.required ?? []) as string[]).every((k) => k in value)
  return [...shapes].sort((a, b) => known(b) - known(a) || Number(complete(b)) - Number(complete(a)))[0]
}

/** Every problem, one per field (a union's branches each report the same field; the first says it best). */
function problems(root: TSchema, check: TypeCheck<TSchema>, value: unknown, where: string): FieldProblem[] {
  const byField = new Map<string, FieldProblem>()
  for (const error of check.Errors(value)) {
    const shape = error.type === ValueErrorType.Union ? meantShape(error.schema, error.value) : null
    const found = shape
      ? [...compile(shape).Errors(error.value)].map((e) => explain(shape, { ...e, path: error.path + e.path }, where))
      : [explain(root, error, where)]
    for (const problem of found)
      if (![...byField.keys()].some((f) => problem.field === f || problem.field.startsWith(`${f}.`))) byField.set(problem.field, problem)
    if (byField.size >= MAX_PROBLEMS) break
  }
  return [...byField.values()]
}

/** A hostile body with thousands of bad fields gets this many answered. */
const MAX_PROBLEMS = 50

/** The deepest schema with its own message on the way down `pointer`, and its path. */
function enclosingMessage(root: TSchema, pointer: string): { path: string; message: string } | null {
  let found: { path: string; message: string } | null = null
  let schema: TSchema | undefined = root
  let path = ''
  for (const segment of pointer.split('/').slice(1)) {
    if (!schema) break
    schema = schema.type === 'array' ? schema.items : schema.properties?.[segment]
    path += `/${segment}`
    const message = schema && messageOf(schema)
    if (message && path !== pointer) found = { path, message }
  }
  return found
}

/** A compiled check of one part of a request (params, query or body) that answers 422 in words. */
export function validator(schema: TSchema, where: 'path' | 'query' | 'body') {
  // Compiled at its first use: a start need not compile the checks of some 200 routes it may never be asked.
  let check: TypeCheck<TSchema> | undefined
  return (value: unknown): unknown => {
    check ??= TypeCompiler.Compile(schema)
    if (check.Check(value)) return value
    const found = problems(schema, check, value, where)
    throw new HttpError(422, found[0].detail, { errors: found })
  }
}

const MULTILINE = Symbol('multiline')
/** Text that may run over several lines: tab, newline and carriage return are allowed in it. */
export function multiline<S extends TSchema>(schema: S): S {
  return Object.assign(schema, { [MULTILINE]: true })
}

const ONE_LINE = { pattern: '^[^\\u0000-\\u001f\\u007f]*$', message: 'must be one line without control characters' }
const LINES = {
  pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$',
  message: 'must not contain control characters other than tab and line breaks',
}

/**
 * Gives every free-text string schema (no pattern, format or fixed value of its own) the rule for control
 * characters, as a pattern the published document shows too: none at all in one-line text, only tab and
 * line breaks in multi-line text. Runs once per schema when routes load.
 */
export function withTextRules<S extends TSchema>(schema: S): S {
  const visit = (s: TSchema) => {
    if (!s || typeof s !== 'object') return
    if (s.type === 'string' && !s.pattern && !s.format && !('const' in s) && !s.enum) {
      const rule = (s as { [MULTILINE]?: boolean })[MULTILINE] ? LINES : ONE_LINE
      Object.assign(s, { pattern: rule.pattern, [MESSAGE]: messageOf(s) ?? rule.message })
    }
    for (const child of [...Object.values(s.properties ?? {}), ...(s.anyOf ?? []), s.items].filter(Boolean)) visit(child as TSchema)
  }
  visit(schema)
  return schema
}
