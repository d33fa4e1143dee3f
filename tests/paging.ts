// Walking a paged list the way a client does: `limit`, then each `next_cursor` as `cursor`, checking the `Link`
// header says the same, until `next_cursor` is null.
import { expect } from 'bun:test'
import type { TestResponse } from './helpers.ts'

/**
 * Every row of a list, page by page. `path` is the list's full path with its filters (a `?` or none); `get` fetches a path; `rows` picks the rows from
 * an answer; `between` runs after each page (to change the list mid-walk). Returns the rows in order.
 */
export async function walkPages<Row>(
  get: (path: string) => Promise<TestResponse>,
  path: string,
  limit: number,
  rows: (body: any) => Row[],
  between: (page: number) => Promise<unknown> = async () => {},
): Promise<Row[]> {
  const seen: Row[] = []
  let address = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`
  for (let page = 0; page < 10_000; page++) {
    const res = await get(address)
    expect(res.status).toBe(200)
    const got = rows(res.body)
    seen.push(...got)
    const next: string | null = res.body.next_cursor
    if (next === null) {
      expect(res.headers.get('link')).toBeNull()
      expect(got.length).toBeLessThanOrEqual(limit)
      return seen
    }
    expect(got).toHaveLength(limit)
    const link = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')
    expect(link).not.toBeNull()
    expect(new URL(link![1], 'http://x').searchParams.get('cursor')).toBe(next)
    address = link![1] // the same filters, the same limit, the next cursor
    await between(page)
  }
  throw new Error('paging did not end')
}
