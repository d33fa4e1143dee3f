// The one way lists page: `limit` and `cursor` in, `next_cursor` (null on the last page) and `Link: <…>; rel="next"`
// out. A cursor is opaque to clients: the position after the last row given, bound to the list and the filters it
// was made for, so a cursor used with other filters is refused (422) rather than silently answering another list.
import { createHash } from 'node:crypto'
import { type Static, Type as t, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { Nullable } from '../schemas.ts'
import { unprocessable } from '../errors.ts'

/** One default page size and one maximum, the same for every list. */
export const PAGE = { default: 50, max: 1000 } as const

/** The query fields every paged list takes. */
export const PageQuery = {
  limit: t.Optional(
    t.Integer({ minimum: 1, maximum: PAGE.max, description: `At most this many rows (${PAGE.default} by default)`, examples: [50] }),
  ),
  cursor: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 512,
      description: 'The `next_cursor` of the previous page, with the same filters',
      examples: ['eyJwIjpbMTIwXX0'],
    }),
  ),
}

/** The field every paged answer carries. */
export const NextCursor = Nullable(
  t.String({
    description: 'Pass as `cursor` for the next page (also in the `Link` header); null on the last page',
    examples: ['eyJwIjpbMTIwXX0'],
  }),
)

/** What binds a cursor: the list's name and its filters, in a stable order. */
function bindingOf(list: string, filters: Record<string, unknown>): string {
  const stable = Object.keys(filters)
    .filter((k) => k !== 'cursor' && k !== 'limit' && filters[k] !== undefined)
    .sort()
    .map((k) => [k, filters[k]])
  return createHash('sha256')
    .update(JSON.stringify([list, stable]))
    .digest('base64url')
    .slice(0, 10)
}

/** The cursor for the page after the one ending at `position` (e.g. the last row's sort key and id). */
export function encodeCursor(list: string, filters: Record<string, unknown>, position: unknown[]): string {
  return Buffer.from(JSON.stringify({ b: bindingOf(list, filters), p: position })).toString('base64url')
}

/** The refusal of a cursor this list did not give. */
export const notOurCursor = () => unprocessable('cursor: is not a cursor this list gave', 'cursor_invalid', 'cursor')

/**
 * The position a cursor holds, of the shape the list gives; 422 when it is not one of ours or was made for another
 * list or other filters.
 */
export function decodeCursor<S extends TSchema>(list: string, filters: Record<string, unknown>, cursor: string, shape: S): Static<S> {
  let parsed: { b?: unknown; p?: unknown }
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw notOurCursor()
  }
  if (!parsed || !Array.isArray(parsed.p)) throw notOurCursor()
  if (parsed.b !== bindingOf(list, filters))
    throw unprocessable('cursor: was given for other filters; start again without it', 'cursor_mismatch', 'cursor')
  if (!Value.Check(shape, parsed.p)) throw notOurCursor()
  return parsed.p as Static<S>
}

/** The `Link` header for the next page: the request's own address with `cursor` replaced. */
export function nextLink(request: Request, nextCursor: string | null): Record<string, string> {
  if (!nextCursor) return {}
  const url = new URL(request.url)
  url.searchParams.set('cursor', nextCursor)
  return { link: `<${url.pathname}${url.search}>; rel="next"` }
}

/** One page of `rows` fetched with `limit + 1`: the rows to answer and whether more follow. */
export function pageOf<T>(rows: T[], limit: number): { rows: T[]; more: boolean } {
  return { rows: rows.slice(0, limit), more: rows.length > limit }
}
